import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../../src/db/schema/index.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { seedPeople } from '../mpesa/fixtures.ts';
import { halfYearHistory, januaryHistory, storeHistory } from './retention-history.ts';

let t: TestApp;
let admin: string;
let staff: string;
let d2: number;
let ov: number;

const get = (url: string, token = admin) => t.as(token, { method: 'GET', url });

beforeAll(async () => {
  t = await createTestApp();
  const ref = await seedPeople(t);
  d2 = ref.d2.id;
  ov = ref.ov.id;
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  await t.addUser({ email: 'agent@betdesk.test' });
  admin = await t.tokenFor('boss@betdesk.test');
  staff = await t.tokenFor('agent@betdesk.test');
  const people = {
    early: await ref.person('subscriber', 'Early E', '254722000011'),
    comeback: await ref.person('subscriber', 'Comeback C', '254722000012'),
    refunded: await ref.person('subscriber', 'Refunded R', '254722000013'),
    graceful: await ref.person('subscriber', 'Graceful G', '254722000014'),
    category: d2,
    other: ov,
  };
  const loyal = await ref.person('subscriber', 'Loyal L', '254722000015');
  const once = await ref.person('subscriber', 'Once O', '254722000016');
  const client = await ref.person('client', 'Client K', '254722000017');
  const rows = [...halfYearHistory(loyal, once, ov), ...januaryHistory(people)];
  await storeHistory(t.deps.db, rows);
  await t.deps.db.insert(subscriptions).values([
    // A Bet4Me client's plan is no tips subscription: never in these figures.
    {
      clientId: client,
      durationDays: 7,
      amountCents: 99_900,
      createdAt: new Date('2026-01-05T07:00:00Z'),
      startsAt: new Date('2026-01-05T07:00:00Z'),
      expiresAt: new Date('2026-01-12T07:00:00Z'),
      source: 'mpesa' as const,
    },
  ]);
});
afterAll(() => t.close());

interface Figures {
  renewal_rate: number | null;
  churn_rate: number | null;
  churned: number;
  net_revenue_retention: number | null;
  arpu: number | null;
  ltv: number | null;
  ltv_note: string | null;
  periods: { period: string; ended: number; renewed: number; income: number; paying: number }[];
}

describe('GET /api/reports/retention', () => {
  it('reads the renewal rate, churn, ARPU and lifetime value from the stored subscriptions', async () => {
    const res = await get('/api/reports/retention?from=2026-01-01&to=2026-02-28&group=month&group_by=category');
    expect(res.statusCode).toBe(200);
    const body = res.json<Figures & { grace_days: number; formulas: Record<string, string>; groups: (Figures & { key: string; label: string })[] }>();
    expect(body.grace_days).toBe(3);
    expect(body.formulas.renewal_rate).toMatch(/grace/);
    const daily2 = body.groups.find((g) => g.key === String(d2))!;
    expect(daily2.label).toBe('Daily 2 Odds');
    // The hand-made January: 6 covers ended, 2 renewed; ARPU KES 200; under six months of history.
    expect(daily2).toMatchObject({ renewal_rate: 2 / 6, churned: 1, churn_rate: 1, net_revenue_retention: 0, arpu: 200, ltv: null });
    expect(daily2.ltv_note).toMatch(/Not enough history/);
    expect(daily2.periods.map((p) => [p.period, p.ended, p.renewed, p.income, p.paying])).toEqual([
      ['2026-01-01', 5, 2, 600, 3],
      ['2026-02-01', 1, 0, 0, 0],
    ]);
    // Over 2.5: the six-month monthly history, and the refund (no income).
    const over = body.groups.find((g) => g.key === String(ov))!;
    // August to January: KES 5,000 over 5 monthly payers = 1,000; churn 1/2, 0, 0, 0, 0, 1 averages 1/4.
    expect(over.ltv).toBe(4_000);
    expect(over.periods[0]).toMatchObject({ income: 0, paying: 0 });
    // All together: the loyal subscriber's December cover ends 1 January, renewed by nobody.
    expect(body.periods[0]).toMatchObject({ ended: 6, renewed: 2, income: 600, paying: 3 });
  });

  it('splits by the channel of the first purchase', async () => {
    const res = await get('/api/reports/retention?from=2026-01-01&to=2026-01-31&group=month&group_by=channel');
    const groups = res.json<{ groups: (Figures & { key: string })[] }>().groups;
    expect(groups.map((g) => [g.key, g.periods[0]!.paying, g.periods[0]!.income]).sort()).toEqual([
      ['paybill', 1, 200], // early (the loyal and once pay nothing in January)
      ['staff', 1, 200], // graceful's first week was recorded by staff
      ['ussd', 1, 200], // comeback's first week was bought by an STK push asked from the USSD menu
    ]);
  });

  it('refuses a split it does not know, naming the field', async () => {
    const res = await get('/api/reports/retention?group_by=colour');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.group_by).toBeDefined();
  });

  it('is for admins only', async () => {
    expect((await get('/api/reports/retention', staff)).statusCode).toBe(403);
    expect((await get('/api/reports/cohorts', staff)).statusCode).toBe(403);
  });

  it('exports the figures as CSV', async () => {
    const res = await get('/api/reports/retention/export?from=2026-01-01&to=2026-01-31&group=month');
    expect(res.statusCode).toBe(200);
    const [header, first] = res.body.trim().split(/\r?\n/);
    expect(header).toContain('Renewal rate %');
    expect(first).toContain('2026-01-01');
    expect(first).toContain('33.3');
  });
});

describe('GET /api/reports/cohorts', () => {
  it("follows each month's new subscribers, the grid summing to its cohorts", async () => {
    const res = await get('/api/reports/cohorts?from=2025-07-01&to=2026-02-28&by=subscribers');
    expect(res.statusCode).toBe(200);
    const cohorts = res.json<{ cohorts: { month: string; size: number; income: number; cells: { active: number; income: number }[] }[] }>().cohorts;
    expect(cohorts.map((c) => [c.month, c.size])).toEqual([
      ['2025-07-01', 2],
      ['2025-08-01', 0],
      ['2025-09-01', 0],
      ['2025-10-01', 0],
      ['2025-11-01', 0],
      ['2025-12-01', 0],
      ['2026-01-01', 3],
      ['2026-02-01', 0],
    ]);
    expect(cohorts[0]!.cells.map((c) => c.active)).toEqual([2, 2, 1, 1, 1, 1, 1, 0]);
    expect(cohorts[0]!.income).toBe(7_000);
    expect(cohorts[6]!.cells.map((c) => [c.active, c.income])).toEqual([
      [3, 600],
      [1, 0],
    ]);
    for (const c of cohorts) expect(c.cells.reduce((s, cell) => s + cell.income, 0)).toBe(c.income);
  });

  it('exports the grid as CSV', async () => {
    const res = await get('/api/reports/cohorts/export?from=2026-01-01&to=2026-02-28');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Cohort size');
  });
});
