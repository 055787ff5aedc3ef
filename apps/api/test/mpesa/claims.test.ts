import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, type SQL } from 'drizzle-orm';
import { auditLog, bets, bonuses, subscriptions } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { pendingBonusCents } from '../../src/modules/bonuses/service.ts';
import { listTipsDeposits } from '../../src/modules/mpesa/queries/lists.ts';
import { explain, type TestApp } from '../helpers.ts';
import { c2b, confirm, ledgerOf, ledgerSumOfPayment, peopleWorld, type Reference, unclaimedPayment } from './fixtures.ts';

let t: TestApp;
let ref: Reference;
let admin: string;
let staff: string;

beforeAll(async () => {
  ({ t, ref, admin, staff } = await peopleWorld());
});
afterAll(() => t.close());

const unclaimed = (over: Record<string, unknown>) => unclaimedPayment(t, over);

const claim = (payload: Record<string, unknown>) =>
  t.as(admin, { method: 'POST', url: '/api/mpesa-transactions/claim', payload });
const unclaim = (transaction_id: number) =>
  t.as(admin, { method: 'POST', url: '/api/mpesa-transactions/unclaim', payload: { transaction_id } });

describe('M-Pesa transaction lists', () => {
  it("answers the spec's keys with totals in KES", async () => {
    await unclaimed({ TransAmount: '250.00', FirstName: 'GRACE', LastName: 'ATIENO' });
    const res = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions?page=1&perPage=50' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['total_deposit', 'total_records', 'total_unclaimed', 'transactions']);
    expect(body.total_unclaimed).toBeGreaterThanOrEqual(250);
    const row = body.transactions[0];
    for (const key of ['amount', 'sender_name', 'sender_phone', 'transaction_reference', 'transaction_timestamp', 'status', 'client_name', 'client_id']) {
      expect(row).toHaveProperty(key);
    }
    expect(row).toMatchObject({ amount: 250, sender_name: 'GRACE ATIENO', sender_phone: null, sender_msisdn: '2547 ***** 555', status: 'unclaimed' });
  });

  it('searches by sender name, receipt and phone (a hashed MSISDN is found by the phone)', async () => {
    const hashed = await unclaimed({ MSISDN: sha256Hex('254711222333'), FirstName: 'PETER', LastName: 'OWINO' });
    const byName = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions/search?search=owino' });
    expect(byName.json().transactions.map((r: { id: number }) => r.id)).toContain(hashed.id);
    const byRef = await t.as(admin, { method: 'GET', url: `/api/mpesa-transactions/search?search=${hashed.transId!.slice(2, 9).toLowerCase()}` });
    expect(byRef.json().transactions.map((r: { id: number }) => r.id)).toContain(hashed.id);
    const byPhone = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions/search?search=0711222333' });
    expect(byPhone.json().transactions.map((r: { id: number }) => r.id)).toEqual([hashed.id]);
    expect(byPhone.json().transactions[0].sender_phone).toBeNull();
  });

  it('lists only unclaimed payments on /unclaimed', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions/unclaimed' });
    expect(res.json().transactions.every((r: { status: string }) => r.status === 'unclaimed')).toBe(true);
  });

  it('lists tips deposits with their spec keys', async () => {
    await unclaimed({ BillRefNumber: 'OV', TransAmount: '70.00' });
    const res = await t.as(admin, { method: 'GET', url: '/api/tips/mpesa/all?page=1&perPage=50' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['deposits', 'total_records']);
    expect(body.total_records).toBeGreaterThanOrEqual(1);
    expect(Object.keys(body.deposits[0]).sort()).toEqual(
      ['amount', 'id', 'refund_asked_amount', 'refunded_amount', 'sender_name', 'sender_phone', 'status', 'transaction_reference', 'transaction_timestamp'].sort(),
    );
    expect(body.deposits[0].refunded_amount).toBe(0);
  });

  it('refuses staff with 403 on every payment screen and action', async () => {
    for (const url of ['/api/mpesa-transactions', '/api/mpesa-transactions/search', '/api/mpesa-transactions/unclaimed', '/api/tips/mpesa/all']) {
      expect((await t.as(staff, { method: 'GET', url })).statusCode).toBe(403);
    }
    expect((await t.as(staff, { method: 'POST', url: '/api/mpesa-transactions/claim', payload: { transaction_id: 1, client_id: 1 } })).statusCode).toBe(403);
    expect((await t.as(null, { method: 'GET', url: '/api/mpesa-transactions' })).statusCode).toBe(401);
  });

  it('answers 422 naming perPage for a page size not in the list', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions?perPage=7' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('perPage');
  });
});

describe('claiming a payment', () => {
  it('claims a payment to a subscriber: the package it equals is activated, audited', async () => {
    const subscriberId = await ref.person('subscriber', 'Claimed Subscriber', '254722200001');
    const payment = await unclaimed({ BillRefNumber: 'D 2', TransAmount: '100.00', MSISDN: '2547 ***** 001' });
    expect(payment.status).toBe('unclaimed');
    const res = await claim({ transaction_id: payment.id, subscriber_id: subscriberId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ info: 'Payment claimed successfully', transaction: { status: 'claimed', subscriber_id: subscriberId } });
    const subs = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    expect(subs).toHaveLength(1);
    expect(await ledgerOf(t, { subscriberId })).toBe(0);
    const audit = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'mpesa_payment'), eq(auditLog.entityId, String(payment.id))));
    expect(audit.map((a) => a.action)).toContain('payment.claim');
  });

  it('refuses a second claim with 409 and credits nothing twice', async () => {
    const clientId = await ref.person('client', 'Twice Client', '254733200002');
    const payment = await unclaimed({ TransAmount: '300.00' });
    expect((await claim({ transaction_id: payment.id, client_id: clientId })).statusCode).toBe(200);
    const again = await claim({ transaction_id: payment.id, client_id: clientId });
    expect(again.statusCode).toBe(409);
    expect(again.json().info).toContain('already been claimed');
    expect(await ledgerOf(t, { clientId })).toBe(30_000);
  });

  it('refuses to claim a rejected payload', async () => {
    const body = c2b({ TransAmount: 'abc' });
    await confirm(t, body);
    const list = await t.as(admin, { method: 'GET', url: '/api/mpesa-transactions' });
    const rejected = list.json().transactions.find((r: { transaction_reference: string }) => r.transaction_reference === body.TransID);
    expect(rejected.status).toBe('rejected');
    expect((await claim({ transaction_id: rejected.id, client_id: 1 })).statusCode).toBe(409);
  });

  it('answers 422 naming the field for bad input, and 404 for an unknown payment', async () => {
    const payment = await unclaimed({});
    const neither = await claim({ transaction_id: payment.id });
    expect(neither.statusCode).toBe(422);
    expect(neither.json().errors).toHaveProperty('client_id');
    const nobody = await claim({ transaction_id: payment.id, client_id: 999_999 });
    expect(nobody.statusCode).toBe(422);
    expect(nobody.json().errors).toHaveProperty('client_id');
    const text = await claim({ transaction_id: 'abc', client_id: 1 });
    expect(text.statusCode).toBe(422);
    expect(text.json().errors).toHaveProperty('transaction_id');
    expect((await claim({ transaction_id: 999_999, client_id: 1 })).statusCode).toBe(404);
  });

  it('unclaims a wrong claim: the plan and bonus it paid are reversed, the ledger nets to zero', async () => {
    const clientId = await ref.person('client', 'Wrong Client', '254733200003');
    const [bet] = await t.deps.db
      .insert(bets)
      .values({ clientId, stakeCents: 50_000, description: 'Chelsea win', profitCents: 50_000, status: 'closed' })
      .returning({ id: bets.id });
    await t.deps.db.insert(bonuses).values({ betId: bet!.id, clientId, amountCents: 15_000, ratePercent: 30 });
    const payment = await unclaimed({ TransAmount: '1150.00' });
    await claim({ transaction_id: payment.id, client_id: clientId });
    expect(await pendingBonusCents(t.deps.db, clientId)).toBe(0);
    const [bought] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    expect(bought?.planId).toBe(ref.weekly.id);
    expect(await ledgerOf(t, { clientId })).toBe(0);

    const res = await unclaim(payment.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ info: 'Payment unclaimed successfully', transaction: { status: 'unclaimed', client_id: null } });
    expect(await pendingBonusCents(t.deps.db, clientId)).toBe(15_000);
    expect(await ledgerOf(t, { clientId })).toBe(0);
    expect(await ledgerSumOfPayment(t, payment.id)).toBe(0);
    const [ended] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.id, bought!.id));
    expect(ended!.lapsedAt).not.toBeNull();
    expect(ended!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
    const audit = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, String(payment.id)));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['payment.claim', 'payment.unclaim']));

    // Claimed again to the right person, the same rules decide again: no bonus owed, and 1,150
    // equals no plan, so it is all credit.
    const rightId = await ref.person('client', 'Right Client', '254733200004');
    expect((await claim({ transaction_id: payment.id, client_id: rightId })).statusCode).toBe(200);
    expect(await ledgerOf(t, { clientId: rightId })).toBe(115_000);
    expect(await ledgerOf(t, { clientId })).toBe(0);
    expect(await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id))).toHaveLength(0);
  });

  it('lets a payment claimed to the wrong subscriber buy the package again for the right one', async () => {
    const wrongId = await ref.person('subscriber', 'Wrong Subscriber', '254722200010');
    const rightId = await ref.person('subscriber', 'Right Subscriber', '254722200011');
    const payment = await unclaimed({ BillRefNumber: 'D2', TransAmount: '100.00', MSISDN: '2547 ***** 010' });
    await claim({ transaction_id: payment.id, subscriber_id: wrongId });
    await unclaim(payment.id);
    expect(await ledgerOf(t, { subscriberId: wrongId })).toBe(0);
    await claim({ transaction_id: payment.id, subscriber_id: rightId });
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment.id));
    expect(sub).toMatchObject({ subscriberId: rightId, packageId: ref.d2Sms.id });
    expect(await ledgerOf(t, { subscriberId: rightId })).toBe(0);
  });

  it('refuses to unclaim a payment that is not claimed (409)', async () => {
    const payment = await unclaimed({});
    expect((await unclaim(payment.id)).statusCode).toBe(409);
  });

  it('suggests people by masked number and name, and finds them by search or receipt', async () => {
    const clientId = await ref.person('client', 'Suggested Wanjiru', '254733200126');
    const payment = await unclaimed({ MSISDN: '2547 ***** 126', FirstName: 'NOT', LastName: 'MATCHING' });
    const suggestions = await t.as(admin, { method: 'GET', url: `/api/mpesa-transactions/claim-candidates?transaction_id=${payment.id}` });
    expect(suggestions.statusCode).toBe(200);
    expect(suggestions.json().candidates).toContainEqual(
      expect.objectContaining({ kind: 'client', id: clientId, suggested: 'Phone fits the masked number' }),
    );
    const bySearch = await t.as(admin, { method: 'GET', url: `/api/mpesa-transactions/claim-candidates?transaction_id=${payment.id}&search=wanjiru` });
    expect(bySearch.json().candidates.map((c: { id: number }) => c.id)).toContain(clientId);
    const byPhone = await t.as(admin, { method: 'GET', url: `/api/mpesa-transactions/claim-candidates?transaction_id=${payment.id}&search=0733200126` });
    expect(byPhone.json().candidates).toHaveLength(1);
  });
});

describe('M-Pesa lists: paging and indexes', () => {
  it('still says how many there are on a page past the end', async () => {
    for (const list of ['/api/mpesa-transactions', '/api/mpesa-transactions/search?search=a', '/api/mpesa-transactions/unclaimed', '/api/tips/mpesa/all']) {
      const join = list.includes('?') ? '&' : '?';
      const first = (await t.as(admin, { method: 'GET', url: `${list}${join}page=1&perPage=50` })).json();
      const past = (await t.as(admin, { method: 'GET', url: `${list}${join}page=999&perPage=50` })).json();
      expect(first.total_records).toBeGreaterThan(0);
      expect(past.total_records).toBe(first.total_records);
      expect(past.transactions ?? past.deposits).toEqual([]);
    }
  });

  it('finds tips deposits among thousands of payments through the account-number index', async () => {
    await t.deps.database.executeSql(
      `insert into mpesa_payments (trans_id, source, amount_cents, bill_ref_number, raw, status, received_at)
       select 'BULK' || n, 'c2b', 10000, case when n % 50 = 0 then 'd2 ' || n else 'B4M' || n end, '{}'::jsonb,
              'unclaimed', now() - make_interval(mins => n)
         from generate_series(1, 4000) as n`,
    );
    await t.deps.database.executeSql('analyze mpesa_payments');
    const listed: SQL[] = [];
    const recording = new Proxy(t.deps.db, {
      get: (target, key, receiver) =>
        key === 'execute'
          ? (query: SQL) => (listed.push(query), target.execute(query))
          : Reflect.get(target, key, receiver),
    });
    const page = await listTipsDeposits(recording, { page: 1, perPage: 50 });
    expect(page.total_records).toBeGreaterThanOrEqual(80);
    const plans = await Promise.all(listed.map((query) => explain(query, t.deps.db)));
    // The account-number index, or its partial twin over the waiting (unclaimed, to nobody) deposits.
    expect(plans.flatMap((p) => p.indexes).filter((i) => /^mpesa_payments_(account_prefix|waiting_account)_idx$/.test(i))).not.toEqual([]);
    expect(plans.flatMap((p) => p.seqScans)).not.toContain('mpesa_payments');
  });
});
