import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '@betdesk/contract';
import { bets, mpesaPayments, refunds, taxInvoices, tipsSubscribers } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';

/** Decision 067: one search for anything, each kind found, in the caller's scope. */
let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let mine: number;
let theirs: number;
let myBet: number;
let theirBet: number;
let refundId: number;

const find = async (token: string, q: string): Promise<SearchResult[]> => {
  const res = await t.as(token, { method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { results: SearchResult[] }).results;
};
const kinds = (results: SearchResult[], kind: SearchResult['kind']) => results.filter((r) => r.kind === kind);

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  mine = await addClient(t.deps.db, { name: 'Njeri Searchable', phone: '254722000111', staffId: p.staffId });
  theirs = await addClient(t.deps.db, { name: 'Otieno Searchable', phone: '254722000222', staffId: p.otherStaffId });
  [{ id: myBet }] = await t.deps.db.insert(bets).values({ clientId: mine, stakeCents: 10_000, description: 'Gor Mahia to win' }).returning({ id: bets.id }) as [{ id: number }];
  [{ id: theirBet }] = await t.deps.db.insert(bets).values({ clientId: theirs, stakeCents: 10_000, description: 'AFC Leopards to win' }).returning({ id: bets.id }) as [{ id: number }];
  await t.deps.db.insert(tipsSubscribers).values({ name: 'Wanjiru Tipster', phone: '254733000333', phoneHash: sha256Hex('254733000333') });
  const [payment] = await t.deps.db
    .insert(mpesaPayments)
    .values({ transId: 'SKQ7ABC123', source: 'c2b', raw: {}, status: 'claimed', amountCents: 50_000, senderName: 'NJERI', senderPhone: '254722000111', clientId: mine, matchedBy: 'manual' })
    .returning({ id: mpesaPayments.id });
  const [refund] = await t.deps.db
    .insert(refunds)
    .values({ paymentId: payment!.id, amountCents: 10_000, reason: 'policy', method: 'reversal', requestedBy: p.adminId, originatorConversationId: 'search-test-1' })
    .returning({ id: refunds.id });
  refundId = refund!.id;
  await t.deps.db.insert(taxInvoices).values({
    kind: 'invoice',
    branchId: '00',
    number: 4711,
    paymentId: payment!.id,
    itemCode: 'KE1',
    itemName: 'Bet4Me plan',
    amountCents: 50_000,
    taxType: 'B',
    taxCents: 6_897,
    status: 'sent',
  });
});
afterAll(() => t.close());

describe('one search for anything', () => {
  it('finds a payment by its receipt as it is typed, in any case', async () => {
    for (const q of ['SKQ7', 'skq7abc', 'SKQ7ABC123']) {
      const [found] = kinds(await find(p.admin, q), 'payment');
      expect(found, q).toMatchObject({ label: 'SKQ7ABC123', href: '/mpesa?search=SKQ7ABC123' });
    }
  });

  it('finds the client, their payments and a tips subscriber by a phone in any form', async () => {
    for (const q of ['0722000111', '0722 000 111', '722000111', '254722000111', '+254722000111', '+254 722-000-111']) {
      const results = await find(p.admin, q);
      expect(kinds(results, 'client').map((r) => r.id), q).toEqual([mine]);
      expect(kinds(results, 'payment').map((r) => r.label), q).toEqual(['SKQ7ABC123']);
    }
    const [subscriber] = kinds(await find(p.admin, '0733 000333'), 'subscriber');
    expect(subscriber).toMatchObject({ label: 'Wanjiru Tipster' });
    expect(subscriber!.href).toMatch(/^\/tips\/subscribers\/view\/\d+$/);
  });

  it('finds clients and subscribers by part of a name', async () => {
    expect(kinds(await find(p.admin, 'searchab'), 'client').map((r) => r.id).sort()).toEqual([mine, theirs].sort());
    expect(kinds(await find(p.admin, 'tipst'), 'subscriber').map((r) => r.label)).toEqual(['Wanjiru Tipster']);
  });

  it('finds a bet, a refund and an invoice by number', async () => {
    expect(kinds(await find(p.admin, String(myBet)), 'bet')).toEqual([expect.objectContaining({ label: `Bet ${myBet}`, href: `/clients/${mine}` })]);
    expect(kinds(await find(p.admin, String(refundId)), 'refund')).toEqual([expect.objectContaining({ label: `Refund ${refundId}` })]);
    expect(kinds(await find(p.admin, '4711'), 'invoice')).toEqual([expect.objectContaining({ label: 'Invoice 00-4711', href: '/tax' })]);
  });

  it('gives a staff member their own clients and bets only, and no payment, refund or invoice', async () => {
    const byName = await find(p.staff, 'Searchable');
    expect(kinds(byName, 'client').map((r) => r.id)).toEqual([mine]);
    expect(kinds(await find(p.staff, '0722000222'), 'client')).toEqual([]);
    expect(kinds(await find(p.staff, String(theirBet)), 'bet')).toEqual([]);
    expect(kinds(await find(p.staff, String(myBet)), 'bet').map((r) => r.id)).toEqual([myBet]);
    expect(kinds(await find(p.staff, 'SKQ7ABC123'), 'payment')).toEqual([]);
    expect(kinds(await find(p.staff, String(refundId)), 'refund')).toEqual([]);
    expect(kinds(await find(p.staff, '4711'), 'invoice')).toEqual([]);
    // Tips subscribers have no owner: every staff member serves them.
    expect(kinds(await find(p.staff, 'Tipster'), 'subscriber')).toHaveLength(1);
  });

  it('refuses an empty or overlong query with a 422 naming the field, and anyone signed out', async () => {
    for (const q of ['', '%20%20', 'x'.repeat(61)]) {
      const res = await t.as(p.admin, { method: 'GET', url: `/api/search?q=${q}` });
      expect(res.statusCode, q).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['q']);
    }
    expect((await t.as(null, { method: 'GET', url: '/api/search?q=abc' })).statusCode).toBe(401);
  });

  it('takes a wildcard literally and finds nothing odd', async () => {
    expect(await find(p.admin, '%%%')).toEqual([]);
    expect(await find(p.admin, '___')).toEqual([]);
  });
});
