import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { broadcasts, smsMessages } from '../../src/db/schema/index.ts';
import { ADMIN, createTestApp, giveMarketingConsent, type TestApp } from '../helpers.ts';
import { seedPeople } from '../mpesa/fixtures.ts';

/** Issue 31: a broadcast costing more than `broadcast_cost_confirm_kes` is sent only once its figure is confirmed. */
let t: TestApp;
let admin: string;
const phones = ['254730000001', '254730000002', '254730000003', '254730000004'];
// With a curly apostrophe the text, its responsible-gambling lines (decision 061) and its opt-out
// line are Unicode: 2 parts; replaced, 1 part.
const curly = `We’ve got the weekend’s best odds for you: ${'a'.repeat(20)}`;
const plain = curly.replaceAll('’', "'");

const setting = (key: string, value: string) =>
  t.as(admin, { method: 'POST', url: '/api/settings/update', payload: { key, value } });
const preview = (message: string) =>
  t.as(admin, { method: 'POST', url: '/api/broadcasts/preview', payload: { segment: 'clients-all', message } });
let keys = 0;
const send = (message: string, extra: Record<string, unknown> = {}) => {
  keys += 1;
  return t.as(admin, {
    method: 'POST',
    url: '/api/broadcasts/send',
    payload: { segment: 'clients-all', message, idempotency_key: `cost-key-${keys}-0000`, ...extra },
  });
};

beforeAll(async () => {
  t = await createTestApp();
  const ref = await seedPeople(t);
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@betdesk.test');
  for (const [i, phone] of phones.entries()) await ref.person('client', `Client ${i}`, phone);
  await giveMarketingConsent(t, ...phones);
  // 4 people × 1 part × KES 0.80 = KES 3.20 stays under KES 5; 2 parts (KES 6.40) go over it.
  expect((await setting('broadcast_cost_confirm_kes', '5')).statusCode).toBe(200);
});
afterAll(() => t.close());

const queuedTexts = async () => (await t.deps.db.select().from(smsMessages)).filter((m) => m.intent === 'broadcast');

describe('broadcast cost confirmation', () => {
  it('previews the cost, the limit and whether it must be confirmed', async () => {
    const doubled = (await preview(curly)).json();
    expect(doubled).toMatchObject({ recipients: 4, parts: 2, estimated_cost: 6.4, cost_limit: 5, needs_confirmation: true });
    const single = (await preview(plain)).json();
    expect(single).toMatchObject({ recipients: 4, parts: 1, estimated_cost: 3.2, cost_limit: 5, needs_confirmation: false });
  });

  it('refuses an unconfirmed broadcast over the limit with the figure, and queues nothing', async () => {
    const refused = await send(curly);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('broadcast-cost');
    expect(refused.json().info).toMatch(/KES\s6\.40/);
    expect(refused.json().info).toContain('4 recipients × 2 parts');
    const short = await send(curly, { confirmed_cost: 3.2 });
    expect(short.statusCode).toBe(409);
    expect(await queuedTexts()).toHaveLength(0);
    expect(await t.deps.db.select().from(broadcasts)).toHaveLength(0);
  });

  it('sends it once the cost is confirmed, storing the parts of each message', async () => {
    const sent = await send(curly, { confirmed_cost: 6.4 });
    expect(sent.statusCode).toBe(200);
    const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.broadcastId, sent.json().broadcast.id));
    expect(queued).toHaveLength(4);
    expect(queued.every((m) => m.parts === 2)).toBe(true);
  });

  it('sends a broadcast under the limit without a confirmation, each message one part', async () => {
    const sent = await send(plain);
    expect(sent.statusCode).toBe(200);
    const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.broadcastId, sent.json().broadcast.id));
    expect(queued.map((m) => m.parts)).toEqual([1, 1, 1, 1]);
  });

  it('names the field of a confirmed cost that is not a number', async () => {
    const res = await send(curly, { confirmed_cost: 'yes' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['confirmed_cost']);
  });
});
