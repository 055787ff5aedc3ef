import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { promoCodes, promoCodeUses, subscriptions } from '../../src/db/schema/index.ts';
import type { HistoryRow } from '../../src/modules/reports/retention-formulas.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { seedPeople } from '../mpesa/fixtures.ts';
import { nairobi, storeHistory } from './retention-history.ts';

/**
 * A hand-made January 2026 (grace 3 days) of three subscribers of Daily 2 Odds by SMS, two won by
 * the promo code WELCOME:
 * - coded: buys a week with WELCOME (KES 70, KES 30 off) on 5 January, renews at full price on
 *   13 January (within the grace), lets it end on 20 January;
 * - plain: buys a full-price week on 6 January, lets it end, comes back on 20 January with
 *   WELCOME (KES 80, KES 20 off), which ends on 27 January;
 * - halved: buys a week with WELCOME (KES 50, KES 50 off) on 8 January, never renews.
 */
let t: TestApp;
let admin: string;
const get = (url: string) => t.as(admin, { method: 'GET', url });

const week = (subscriberId: number, categoryId: number, bought: string, ends: string, amountCents: number): Omit<HistoryRow, 'id'> => ({
  subscriberId,
  categoryId,
  medium: 'sms',
  source: 'mpesa',
  channel: 'paybill',
  amountCents,
  createdAt: nairobi(bought),
  startsAt: nairobi(bought),
  expiresAt: nairobi(ends),
  reversedAt: null,
});

beforeAll(async () => {
  t = await createTestApp();
  const ref = await seedPeople(t);
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@betdesk.test');
  const coded = await ref.person('subscriber', 'Coded C', '254722000021');
  const plain = await ref.person('subscriber', 'Plain P', '254722000022');
  const halved = await ref.person('subscriber', 'Halved H', '254722000023');
  const d2 = ref.d2.id;
  await storeHistory(t.deps.db, [
    week(coded, d2, '2026-01-05T10:00:00', '2026-01-12T10:00:00', 7_000),
    week(plain, d2, '2026-01-06T09:00:00', '2026-01-13T09:00:00', 10_000),
    week(halved, d2, '2026-01-08T12:00:00', '2026-01-15T12:00:00', 5_000),
    week(coded, d2, '2026-01-13T09:00:00', '2026-01-20T09:00:00', 10_000),
    week(plain, d2, '2026-01-20T09:00:00', '2026-01-27T09:00:00', 8_000),
  ]);
  const [code] = await t.deps.db
    .insert(promoCodes)
    .values({ code: 'WELCOME', kind: 'fixed', amountOffCents: 3_000, packageIds: [ref.d2Sms.id], startsAt: nairobi('2026-01-01T00:00:00'), endsAt: nairobi('2026-02-01T00:00:00'), onePerPhone: false })
    .returning();
  const saleOf = async (subscriberId: number, bought: string) => {
    const [s] = await t.deps.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.subscriberId, subscriberId), eq(subscriptions.createdAt, nairobi(bought))));
    return s!.id;
  };
  const use = async (subscriberId: number, bought: string, discountCents: number, priceCents: number) => ({
    codeId: code!.id,
    phone: '254722000000',
    packageId: ref.d2Sms.id,
    channel: 'portal' as const,
    listPriceCents: discountCents + priceCents,
    discountCents,
    priceCents,
    status: 'used' as const,
    subscriptionId: await saleOf(subscriberId, bought),
    usedAt: nairobi(bought),
  });
  await t.deps.db.insert(promoCodeUses).values([
    await use(coded, '2026-01-05T10:00:00', 3_000, 7_000),
    await use(plain, '2026-01-20T09:00:00', 2_000, 8_000),
    await use(halved, '2026-01-08T12:00:00', 5_000, 5_000),
  ]);
});
afterAll(() => t.close());

interface LeverGroup {
  key: string;
  label: string;
  renewal_rate: number | null;
  churn_rate: number | null;
  arpu: number | null;
  ltv: number | null;
  periods: { period: string; ended: number; renewed: number; income: number; paying: number }[];
  lever_sales: { sales: number; income: number; discount: number; commission: number };
}

describe('GET /api/reports/retention?group_by=lever', () => {
  it('splits the figures by the lever of each subscriber’s first sale, with each lever’s sales, discount and commission beside', async () => {
    const res = await get('/api/reports/retention?from=2026-01-01&to=2026-01-31&group=month&group_by=lever');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ periods: LeverGroup['periods']; groups: LeverGroup[] }>();
    expect(body.groups.map((g) => [g.key, g.label])).toEqual([
      ['code', 'Promo code'],
      ['none', 'No lever'],
    ]);
    const [code, none] = body.groups as [LeverGroup, LeverGroup];
    // Won by WELCOME (coded, halved): 3 covers ended, coded's first renewed; KES 220 from 2 payers.
    expect(code).toMatchObject({ renewal_rate: 1 / 3, churn_rate: null, arpu: 110, ltv: null });
    expect(code.periods.map((p) => [p.ended, p.renewed, p.income, p.paying])).toEqual([[3, 1, 220, 2]]);
    // WELCOME's own sales in January: coded's first, plain's comeback, halved's: KES 200, KES 100 off.
    expect(code.lever_sales).toEqual({ sales: 3, income: 200, discount: 100, commission: 0 });
    // Won by no lever (plain): 2 covers ended, none renewed (the comeback is after the grace); KES 180.
    expect(none).toMatchObject({ renewal_rate: 0, arpu: 180, ltv: null });
    expect(none.periods.map((p) => [p.ended, p.renewed, p.income, p.paying])).toEqual([[2, 0, 180, 1]]);
    expect(none.lever_sales).toEqual({ sales: 2, income: 200, discount: 0, commission: 0 });
    // The split adds up to the whole, both ways.
    expect(body.periods.map((p) => [p.ended, p.renewed, p.income, p.paying])).toEqual([[5, 1, 400, 3]]);
    expect(code.lever_sales.income + none.lever_sales.income).toBe(400);
  });

  it('splits the cohorts by lever', async () => {
    const res = await get('/api/reports/cohorts?from=2026-01-01&to=2026-02-28&group_by=lever');
    expect(res.statusCode).toBe(200);
    const groups = res.json<{ groups: { key: string; cohorts: { month: string; size: number; income: number; cells: { active: number; income: number }[] }[] }[] }>().groups;
    expect(groups.map((g) => [g.key, g.cohorts[0]!.size, g.cohorts[0]!.income, g.cohorts[0]!.cells.map((c) => [c.active, c.income])])).toEqual([
      ['code', 2, 220, [[2, 220], [0, 0]]],
      ['none', 1, 180, [[1, 180], [0, 0]]],
    ]);
  });

  it('leaves the summary splits as they were and still refuses an unknown one', async () => {
    expect((await get('/api/reports/retention?from=2026-01-01&to=2026-01-31&group_by=medium')).json().groups.map((g: { key: string }) => g.key)).toEqual(['sms']);
    const res = await get('/api/reports/retention?group_by=colour');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.group_by).toBeDefined();
  });
});
