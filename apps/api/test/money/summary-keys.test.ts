import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/rows.ts';
import { parseSummaryKey, staffKey, SUMMARY_KINDS } from '../../src/db/summaries.ts';
import { queueSms } from '../../src/modules/sms/service.ts';
import { createTestApp, ADMIN, type TestApp } from '../helpers.ts';
import { addClient } from '../clients/fixtures.ts';
import { c2b, confirm, declaredAdult, paymentByReceipt, receipt, seedPeople } from '../mpesa/fixtures.ts';

/**
 * The summary keys' kinds are listed once in TypeScript (SUMMARY_KINDS) and written by the triggers'
 * SQL: after the business's writes, the keys in the summaries are exactly of the listed kinds.
 */

let t: TestApp;
let admin: string;
let staffId: number;

const post = (url: string, payload: object, token = admin) => t.as(token, { method: 'POST', url, payload });

beforeAll(async () => {
  t = await createTestApp();
  await seedPeople(t);
  await t.addUser({ email: 'boss@x.test', categoryId: ADMIN });
  staffId = await t.addUser({ email: 'wanjiku@x.test', name: 'Wanjiku Kamau' });
  admin = await t.tokenFor('boss@x.test');
  const staff = await t.tokenFor('wanjiku@x.test');

  // A client (and their Bet4Me plan), two bets by a staff member: one won and closed, one open.
  const clientId = await addClient(t.deps.db, { name: 'Brian Mwangi', staffId });
  for (const stake of [100, 200]) expect((await post('/api/bets/save', { client_id: clientId, stake, description: 'Arsenal' }, staff)).statusCode).toBe(200);
  const [won] = await rows<{ id: number }>(t.deps.db, sql`select id from bets order by id limit 1`);
  expect((await post('/api/bets/update', { bet_id: Number(won!.id), profit: 5000 })).statusCode).toBe(200);
  // Part of the bonus paid: some paid, some unpaid.
  expect((await post('/api/bonuses/pay', { client_id: clientId, amount: 1, description: 'Part payment' })).statusCode).toBe(200);

  // A new payer buys a tips package (a subscriber, a subscription, a payment); another payment waits unclaimed.
  const paid = receipt();
  await declaredAdult(t, '254722000111'); // declared 18+ before paying (decision 066)
  expect((await confirm(t, c2b({ TransID: paid, TransAmount: '100.00', BillRefNumber: 'D2', MSISDN: '254722000111' }))).statusCode).toBe(200);
  expect((await confirm(t, c2b({ TransAmount: '55.00', BillRefNumber: 'NOBODY', MSISDN: '254722000222' }))).statusCode).toBe(200);
  // The package payment unclaimed: its subscription is reversed.
  const payment = await paymentByReceipt(t, paid);
  expect((await post('/api/mpesa-transactions/unclaim', { transaction_id: payment!.id })).statusCode).toBe(200);

  await queueSms(t.deps.db, { intent: 'test', dedupeKey: 'summary-keys', to: '254722000111', body: 'Hello', createdBy: null });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function writtenKeys(): Promise<string[]> {
  const found = await rows<{ key: string }>(t.deps.db, sql`select key from summary_days union select key from summary_deltas order by key`);
  return found.map((r) => r.key);
}

describe('summary keys', () => {
  it('are exactly of the kinds listed in TypeScript, each with its parts', async () => {
    const keys = await writtenKeys();
    expect(keys.filter((k) => parseSummaryKey(k) === null)).toEqual([]);
    expect(new Set(keys.map((k) => parseSummaryKey(k)!.kind))).toEqual(new Set(Object.keys(SUMMARY_KINDS)));
  });

  it('name the staff member who opened the bet by user id, for the bets and their bonuses', async () => {
    const staff = (await writtenKeys()).flatMap((k) => staffKey(k) ?? []);
    expect(staff.map((k) => k.kind).sort()).toEqual(['bet:closed', 'bet:open', 'bet:opened', 'bet:profit', 'bonus:earned', 'bonus:paid', 'bonus:unpaid']);
    expect(staff.every((k) => k.userId === staffId)).toBe(true);
    expect(parseSummaryKey('payment:claimed:client:c2b')).toEqual({ kind: 'payment', status: 'claimed', payer: 'client', source: 'c2b' });
    expect(staffKey('payment:claimed:client:c2b')).toBeNull();
    expect(parseSummaryKey('bet:opened')).toBeNull();
  });
});
