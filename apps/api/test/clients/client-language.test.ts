import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { auditLog, phoneLanguages, smsMessages } from '../../src/db/schema/index.ts';
import { runSubscriptionExpiry } from '../../src/modules/subscriptions/expiry.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from './fixtures.ts';

/** Issue 31: a client's read carries `language`; staff set it, stored with the phone, and the client's SMS follow it. */
let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let clientId: number;
const phone = '254790555001';

const show = async (token: string) =>
  t.as(token, { method: 'GET', url: `/api/clients/show?client_id=${clientId}` });
const setLanguage = (token: string, payload: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/clients/language', payload });

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  clientId = await addClient(t.deps.db, { name: 'Juma Client', phone, staffId: p.staffId });
});
afterAll(() => t.close());

describe("a client's language", () => {
  it("reads the business default while the client never chose, and names the field of a language that is not offered", async () => {
    expect((await show(p.staff)).json().client.language).toBe('en');
    for (const [payload, field] of [
      [{ client_id: clientId, language: 'fr' }, 'language'],
      [{ client_id: clientId }, 'language'],
      [{ client_id: 'x', language: 'sw' }, 'client_id'],
    ] as const) {
      const res = await setLanguage(p.staff, payload);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    }
  });

  it("lets the client's staff member set Kiswahili, stored once with the phone and audited", async () => {
    const res = await setLanguage(p.staff, { client_id: clientId, language: 'sw' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toBe('Messages to Juma Client will be written in Kiswahili.');
    expect((await show(p.admin)).json().client.language).toBe('sw');
    // The same choice again changes nothing and is not audited twice.
    expect((await setLanguage(p.admin, { client_id: clientId, language: 'sw' })).statusCode).toBe(200);
    expect(await t.deps.db.select().from(phoneLanguages).where(eq(phoneLanguages.phone, phone))).toMatchObject([
      { language: 'sw', source: 'staff', updatedBy: p.staffId },
    ]);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'client.language'));
    expect(audits).toMatchObject([{ entityId: String(clientId), actorUserId: p.staffId, after: { language: 'sw' } }]);
  });

  it("refuses another staff member's client as not found", async () => {
    const res = await setLanguage(p.otherStaff, { client_id: clientId, language: 'en' });
    expect(res.statusCode).toBe(404);
    expect((await show(p.admin)).json().client.language).toBe('sw');
  });

  it("writes the client's renewal reminder in their language", async () => {
    await t.deps.db.execute(sql`update subscriptions set expires_at = now() + interval '12 hours' where client_id = ${clientId}`);
    await runSubscriptionExpiry(t.deps.db);
    const [reminder] = await t.deps.db
      .select({ body: smsMessages.body })
      .from(smsMessages)
      .where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, 'subscription.reminder')))
      .orderBy(desc(smsMessages.id));
    // The responsible-gambling lines follow, in Kiswahili too (decision 061).
    expect(reminder?.body).toMatch(/^Habari Juma Client, usajili wako wa .+ unaisha .+\. Lipia tena kwa M-Pesa uendelee kupokea\. 18\+\. Kamari ni uraibu\. Cheza kwa uwajibikaji\.$/);
  });
});
