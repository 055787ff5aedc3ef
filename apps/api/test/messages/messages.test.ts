import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { smsMessages } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let mine: number;
let theirs: number;

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  mine = await addClient(t.deps.db, { name: 'Brian Mwangi', phone: '254711000001', staffId: p.staffId });
  theirs = await addClient(t.deps.db, { name: 'Kevin Otieno', staffId: p.otherStaffId });
});
afterAll(() => t.close());

const send = (token: string | null, payload: Record<string, unknown>) => t.as(token, { method: 'POST', url: '/api/messages', payload });

describe('POST /api/messages', () => {
  it("queues the message to the client's phone on file", async () => {
    const res = await send(p.staff, { id: mine, name: 'Brian Mwangi', phone: '0799999999', message: 'Your bet won! Bonus due: KES 300.' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toBe('Message sent successfully');
    const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'client.message'));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ recipient: '254711000001', body: 'Your bet won! Bonus due: KES 300.', createdBy: p.staffId });
  });

  it('sends the same text twice when asked twice', async () => {
    await send(p.admin, { id: mine, message: 'Reminder' });
    await send(p.admin, { id: mine, message: 'Reminder' });
    const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.body, 'Reminder'));
    expect(queued).toHaveLength(2);
  });

  it('refuses an empty message, naming the field', async () => {
    const res = await send(p.admin, { id: mine, message: '   ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.message).toEqual(['The message is required']);
  });

  it("answers 404 for someone else's client, 401 without a session", async () => {
    expect((await send(p.staff, { id: theirs, message: 'Hi' })).statusCode).toBe(404);
    expect((await send(null, { id: mine, message: 'Hi' })).statusCode).toBe(401);
  });
});
