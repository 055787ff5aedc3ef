import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { SmsMessage, SmsMessageDetail } from '@betdesk/contract';
import { clientAssignments, clients, tipsSubscribers } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { dispatchQueuedSms, queueSms, queueSmsFanout } from '../../src/modules/sms/outbox.ts';
import { smsMessages } from '../../src/db/schema/index.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let admin: string;
let wanjiku: string;
let otieno: string;
let wanjikusClient: number;
let otienosClient: number;
let subscriber: number;

async function addClient(name: string, phone: string, userId: number): Promise<number> {
  const [row] = await t.deps.db.insert(clients).values({ name, phone, phoneHash: sha256Hex(phone) }).returning({ id: clients.id });
  await t.deps.db.insert(clientAssignments).values({ clientId: row!.id, userId });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  await t.addUser({ email: 'admin@betdesk.test', categoryId: ADMIN });
  const wanjikuId = await t.addUser({ email: 'wanjiku@betdesk.test' });
  const otienoId = await t.addUser({ email: 'otieno@betdesk.test' });
  admin = await t.tokenFor('admin@betdesk.test');
  wanjiku = await t.tokenFor('wanjiku@betdesk.test');
  otieno = await t.tokenFor('otieno@betdesk.test');
  wanjikusClient = await addClient('Kamau Njoroge', '254712000101', wanjikuId);
  otienosClient = await addClient('Akinyi Odhiambo', '254712000102', otienoId);
  const [s] = await t.deps.db
    .insert(tipsSubscribers)
    .values({ name: 'Mwangi Kariuki', phone: '254712000201', phoneHash: sha256Hex('254712000201') })
    .returning({ id: tipsSubscribers.id });
  subscriber = s!.id;

  await queueSms(t.deps.db, { intent: 'client.message', dedupeKey: 'c1', to: '254712000101', body: 'Your bet is placed', createdBy: null, clientId: wanjikusClient });
  await queueSms(t.deps.db, { intent: 'client.message', dedupeKey: 'c2', to: '254712000102', body: 'Welcome', createdBy: null });
  await queueSmsFanout(t.deps.db, {
    intent: 'tips.sms',
    dedupeKeyPrefix: 'tip:D2:v1',
    body: 'D2 tips: Gor Mahia to win',
    recipients: sql`select id as subscriber_id, phone from tips_subscribers`,
    recipientsAre: 'subscribers',
    createdBy: null,
  });
  await dispatchQueuedSms(t.deps.database, t.deps.sms);
  await queueSms(t.deps.db, { intent: 'client.message', dedupeKey: 'c3', to: '254712000101', body: 'Still waiting', createdBy: null });
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

describe('SMS log (admin)', () => {
  it('lists every message newest first with counts per status', async () => {
    const res = await get(admin, '/api/sms/log');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['messages', 'status_counts', 'total_records']);
    expect(body.total_records).toBe(4);
    expect(body.status_counts).toEqual({ queued: 1, sending: 0, sent: 3, delivered: 0, failed: 0, unconfirmed: 0 });
    expect(body.messages.map((m: SmsMessage) => m.message)).toEqual([
      'Still waiting',
      'D2 tips: Gor Mahia to win',
      'Welcome',
      'Your bet is placed',
    ]);
    expect(Object.keys(body.messages[0]).sort()).toEqual(Object.keys(SmsMessage.shape).sort());
    expect(body.messages[1]).toMatchObject({ phone: '0712000201', name: 'Mwangi Kariuki', subscriber_id: subscriber, status: 'sent', parts: 1 });
    // Not linked when queued, found by phone.
    expect(body.messages[2]).toMatchObject({ name: 'Akinyi Odhiambo', client_id: otienosClient });
  });

  it('filters by status', async () => {
    const body = (await get(admin, '/api/sms/log?status=queued')).json();
    expect(body.total_records).toBe(1);
    expect(body.messages[0]).toMatchObject({ status: 'queued', message: 'Still waiting', sent_on: null });
  });

  it('searches by phone as staff type it', async () => {
    for (const search of ['0712000101', '+254712000101', '000101']) {
      const body = (await get(admin, `/api/sms/log?search=${encodeURIComponent(search)}`)).json();
      expect(body.messages.map((m: SmsMessage) => m.message)).toEqual(['Still waiting', 'Your bet is placed']);
      expect(body.status_counts).toMatchObject({ queued: 1, sent: 1 });
    }
  });

  it('pages', async () => {
    const body = (await get(admin, '/api/sms/log?perPage=50&page=2')).json();
    expect(body.messages).toEqual([]);
    // A page past the end still says how many messages there are.
    expect(body.total_records).toBe(4);
    const client = (await get(wanjiku, `/api/sms/client-messages?client_id=${wanjikusClient}&page=3`)).json();
    expect(client).toEqual({ total_records: 2, messages: [] });
  });

  it('refuses an unknown status or a search that is not a phone, naming the field', async () => {
    const status = await get(admin, '/api/sms/log?status=lost');
    expect(status.statusCode).toBe(422);
    expect(Object.keys(status.json().errors)).toEqual(['status']);
    const search = await get(admin, '/api/sms/log?search=kamau');
    expect(search.statusCode).toBe(422);
    expect(search.json().errors).toEqual({ search: ['Search by phone number: digits only'] });
    expect((await get(admin, '/api/sms/log?perPage=7')).statusCode).toBe(422);
  });

  it('shows one message with its gateway details', async () => {
    const list = (await get(admin, '/api/sms/log?search=0712000201')).json();
    const res = await get(admin, `/api/sms/log/show?id=${list.messages[0].id}`);
    expect(res.statusCode).toBe(200);
    const { message } = res.json();
    expect(Object.keys(message).sort()).toEqual(Object.keys(SmsMessageDetail.shape).sort());
    expect(message).toMatchObject({ provider_message_id: expect.stringMatching(/^log-/), attempts: 1, next_attempt_on: null });
  });

  it('answers 404 for an unknown message', async () => {
    expect((await get(admin, '/api/sms/log/show?id=999999')).statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    expect((await get(wanjiku, '/api/sms/log')).statusCode).toBe(403);
    expect((await get(wanjiku, '/api/sms/log/show?id=1')).statusCode).toBe(403);
    expect((await t.as(null, { method: 'GET', url: '/api/sms/log' })).statusCode).toBe(401);
  });
});

describe("A person's messages", () => {
  it("lists a client's messages to the staff user they are assigned to", async () => {
    const res = await get(wanjiku, `/api/sms/client-messages?client_id=${wanjikusClient}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['messages', 'total_records']);
    expect(body.total_records).toBe(2);
    expect(body.messages.map((m: SmsMessage) => [m.message, m.status])).toEqual([
      ['Still waiting', 'queued'],
      ['Your bet is placed', 'sent'],
    ]);
  });

  it("answers 404 for someone else's client", async () => {
    expect((await get(otieno, `/api/sms/client-messages?client_id=${wanjikusClient}`)).statusCode).toBe(404);
    expect((await get(admin, `/api/sms/client-messages?client_id=${otienosClient}`)).json().total_records).toBe(1);
  });

  it("lists a tips subscriber's messages to any staff user", async () => {
    const body = (await get(otieno, `/api/sms/subscriber-messages?subscriber_id=${subscriber}`)).json();
    expect(body.messages).toEqual([expect.objectContaining({ message: 'D2 tips: Gor Mahia to win', name: 'Mwangi Kariuki' })]);
    expect((await get(otieno, '/api/sms/subscriber-messages?subscriber_id=424242')).statusCode).toBe(404);
    expect((await get(otieno, '/api/sms/subscriber-messages?subscriber_id=abc')).statusCode).toBe(422);
  });
});

describe('A temporary password by SMS', () => {
  it('is never shown in the log, the message detail or the person\'s messages, and is not kept once sent', async () => {
    // A new staff user whose phone is also a client's: the message shows on the client's page too.
    const registered = await t.as(admin, {
      method: 'POST',
      url: '/api/users/store',
      payload: { name: 'Njeri Wambui', phone_number: '0712000101', email: 'njeri@betdesk.test', gender: 'female', category_id: 2 },
    });
    expect(registered.statusCode).toBe(200);
    const [stored] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'user.temporary-password'));
    const password = /temporary password (\S+),/.exec(stored!.body)![1]!;

    const seen = async () => {
      const log = (await get(admin, '/api/sms/log?search=0712000101')).json();
      const detail = (await get(admin, `/api/sms/log/show?id=${stored!.id}`)).json();
      const client = (await get(wanjiku, `/api/sms/client-messages?client_id=${wanjikusClient}`)).json();
      const texts = [...log.messages, detail.message, ...client.messages].filter((m: SmsMessage) => m.id === stored!.id);
      expect(texts).toHaveLength(3);
      for (const m of texts) expect(m).toMatchObject({ intent: 'user.temporary-password', message: '[temporary password hidden]' });
      expect(JSON.stringify([log, detail, client])).not.toContain(password);
    };
    await seen(); // while it waits in the queue

    await dispatchQueuedSms(t.deps.database, t.deps.sms);
    const [sent] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.id, stored!.id));
    expect(sent).toMatchObject({ status: 'sent', body: '[temporary password hidden]' });
    await seen();
  });
});
