import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bet4mePlans, betCategories, bets, bonuses, clients, pricePackages, tipsSubscribers } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { activateSubscription } from '../../src/modules/subscriptions/service.ts';
import { balanceCents, postLedgerEntry } from '../../src/modules/ledger/service.ts';
import { payPendingBonuses, pendingBonusCents } from '../../src/modules/bonuses/service.ts';
import { queueSmsFanout } from '../../src/modules/sms/outbox.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let clientId: number;
let subscriberId: number;
let planId: number;
let packageId: number;
let categoryId: number;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.deps.db;
  [{ id: clientId }] = (await db
    .insert(clients)
    .values({ name: 'Brian Mwangi', phone: '254711000001', phoneHash: sha256Hex('254711000001') })
    .returning({ id: clients.id })) as [{ id: number }];
  [{ id: planId }] = (await db
    .insert(bet4mePlans)
    .values({ name: 'Weekly', durationDays: 7, priceCents: 100_000 })
    .returning({ id: bet4mePlans.id })) as [{ id: number }];
  [{ id: categoryId }] = (await db
    .insert(betCategories)
    .values({ name: 'Daily 2 Odds', code: 'D2' })
    .returning({ id: betCategories.id })) as [{ id: number }];
  [{ id: packageId }] = (await db
    .insert(pricePackages)
    .values({ betCategoryId: categoryId, medium: 'sms', name: 'D2 weekly SMS', durationDays: 7, priceCents: 50_000 })
    .returning({ id: pricePackages.id })) as [{ id: number }];
  [{ id: subscriberId }] = (await db
    .insert(tipsSubscribers)
    .values({ name: 'Mary Njeri', phone: '254722000002', phoneHash: sha256Hex('254722000002') })
    .returning({ id: tipsSubscribers.id })) as [{ id: number }];
});
afterAll(() => t.close());

describe('subscriptions', () => {
  it('stacks a renewal on the current expiry of the same plan', async () => {
    const first = await t.deps.db.transaction((tx) =>
      activateSubscription(tx, { what: { clientId, planId }, durationDays: 7, amountCents: 100_000, source: 'manual' }),
    );
    const second = await t.deps.db.transaction((tx) =>
      activateSubscription(tx, { what: { clientId, planId }, durationDays: 7, amountCents: 100_000, source: 'manual' }),
    );
    expect(second.startsAt.getTime()).toBe(first.expiresAt.getTime());
    expect(second.expiresAt.getTime() - first.startsAt.getTime()).toBe(14 * DAY);
  });

  it('keeps separate periods per bet category and medium for tips', async () => {
    const what = { subscriberId, packageId, betCategoryId: categoryId, medium: 'sms' as const };
    await postLedgerEntry(t.deps.db, { holder: { subscriberId }, amountCents: 50_000, kind: 'payment' });
    const sms = await t.deps.db.transaction((tx) =>
      activateSubscription(tx, { what, durationDays: 7, amountCents: 50_000, source: 'balance' }),
    );
    const web = await t.deps.db.transaction((tx) =>
      activateSubscription(tx, {
        what: { ...what, medium: 'web' },
        durationDays: 7,
        amountCents: 50_000,
        source: 'manual',
      }),
    );
    expect(Math.abs(web.startsAt.getTime() - sms.startsAt.getTime())).toBeLessThan(5_000);
    // Bought from the balance: the credit is spent, the manual one did not touch the ledger.
    expect(await balanceCents(t.deps.db, { subscriberId })).toBe(0);
  });
});

describe('bonuses', () => {
  it('pays pending bonuses oldest first, partly, and debits the account when paid from it', async () => {
    const db = t.deps.db;
    const ids: number[] = [];
    for (const [i, amount] of [30_000, 20_000].entries()) {
      const [bet] = await db
        .insert(bets)
        .values({ clientId, stakeCents: 100_000, description: `bet ${i}`, status: 'closed', profitCents: amount * 3 })
        .returning({ id: bets.id });
      const [bonus] = await db
        .insert(bonuses)
        .values({
          betId: bet!.id,
          clientId,
          amountCents: amount,
          ratePercent: 30,
          earnedAt: new Date(Date.now() - (10 - i) * DAY),
        })
        .returning({ id: bonuses.id });
      ids.push(bonus!.id);
    }
    expect(await pendingBonusCents(db, clientId)).toBe(50_000);
    await postLedgerEntry(db, { holder: { clientId }, amountCents: 40_000, kind: 'payment' });
    const paid = await db.transaction((tx) =>
      payPendingBonuses(tx, { clientId, amountCents: 40_000, source: 'mpesa', description: 'M-Pesa', actorUserId: null }),
    );
    expect(paid.paidCents).toBe(40_000);
    expect(await pendingBonusCents(db, clientId)).toBe(10_000);
    expect(await balanceCents(db, { clientId })).toBe(0);
    const { rows } = await t.deps.database.executeSql(
      `select bonus_id, amount_cents from bonus_allocations order by bonus_id`,
    );
    expect(rows.map((r) => [Number(r.bonus_id), Number(r.amount_cents)])).toEqual([
      [ids[0], 30_000],
      [ids[1], 10_000],
    ]);
    const more = await db.transaction((tx) =>
      payPendingBonuses(tx, { clientId, amountCents: 99_000, source: 'manual', description: 'cash', actorUserId: null }),
    );
    expect(more.paidCents).toBe(10_000);
    const none = await db.transaction((tx) =>
      payPendingBonuses(tx, { clientId, amountCents: 5_000, source: 'manual', description: 'cash', actorUserId: null }),
    );
    expect(none).toEqual({ paidCents: 0, bonusPaymentId: null });
  });
});

describe('SMS fan-out', () => {
  it('queues one row per recipient in bulk, once per intent version', async () => {
    const recipients = sql`select phone from ${tipsSubscribers}`;
    const fanout = { intent: 'tip', dedupeKeyPrefix: 'tip:D2:v1', body: 'D2: Arsenal win', recipients, createdBy: null };
    expect(await queueSmsFanout(t.deps.db, fanout)).toBe(1);
    expect(await queueSmsFanout(t.deps.db, fanout)).toBe(0);
    expect(await queueSmsFanout(t.deps.db, { ...fanout, dedupeKeyPrefix: 'tip:D2:v2' })).toBe(1);
  });
});
