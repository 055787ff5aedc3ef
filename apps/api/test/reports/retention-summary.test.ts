import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { periodsOf, type ReportGroup } from '@betdesk/contract';
import { rows } from '../../src/db/rows.ts';
import { stkRequests, subscriptions, type StkOrigin } from '../../src/db/schema/index.ts';
import { channelOf, cohortGrid, retentionFigures, type HistoryRow } from '../../src/modules/reports/retention-formulas.ts';
import { summaryCohorts, summaryFigures } from '../../src/modules/reports/retention-read.ts';
import { rebuildRetentionSummaries, summariseMarked } from '../../src/modules/reports/retention-summary-store.ts';
import { categoryKey, mediumKey, type RetentionDim } from '../../src/modules/reports/retention-summary.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { seedPeople } from '../mpesa/fixtures.ts';
import { halfYearHistory, januaryHistory, nairobi, storeHistory } from './retention-history.ts';

/**
 * Decision 043: the figures read from the summaries are the pure formulas' figures on the stored
 * history, for every split, grouping and grace, after concurrent purchases and a refund.
 */

let t: TestApp;
let people: { early: number; comeback: number; graceful: number };
const NOW = nairobi('2026-03-10T15:00:00');

const insertRows = (rows: Omit<HistoryRow, 'id'>[]) => storeHistory(t.deps.db, rows);

const week = (subscriberId: number, categoryId: number, bought: string, over: Partial<HistoryRow> = {}): Omit<HistoryRow, 'id'> => {
  const at = nairobi(bought);
  return {
    subscriberId,
    categoryId,
    medium: 'sms',
    source: 'stk',
    channel: 'portal',
    amountCents: 10_000,
    createdAt: at,
    startsAt: at,
    expiresAt: new Date(at.getTime() + 7 * 24 * 60 * 60 * 1000),
    reversedAt: null,
    ...over,
  };
};

/** The stored tips subscriptions, each with the channel of its payment (an STK push's origin). */
async function storedHistory(): Promise<HistoryRow[]> {
  const found = await rows<{
    id: number;
    subscriber_id: number;
    bet_category_id: number | null;
    medium: HistoryRow['medium'];
    source: HistoryRow['source'];
    origin: StkOrigin | null;
    amount_cents: number;
    created_at: string;
    starts_at: string;
    expires_at: string;
    reversed_at: string | null;
  }>(
    t.deps.db,
    sql`select s.*, r.origin from ${subscriptions} s left join ${stkRequests} r on r.payment_id = s.payment_id where s.subscriber_id is not null`,
  );
  return found.map((r) => ({
    id: Number(r.id),
    subscriberId: r.subscriber_id,
    categoryId: r.bet_category_id,
    medium: r.medium,
    source: r.source,
    channel: channelOf(r.source, r.origin),
    amountCents: Number(r.amount_cents),
    createdAt: new Date(r.created_at),
    startsAt: new Date(r.starts_at),
    expiresAt: new Date(r.expires_at),
    reversedAt: r.reversed_at === null ? null : new Date(r.reversed_at),
  }));
}

/** The history of each key of a split, as the report split it before the summaries. */
function splitHistory(rows: HistoryRow[], dim: RetentionDim): Map<string, HistoryRow[]> {
  const out = new Map<string, HistoryRow[]>();
  const add = (key: string, r: HistoryRow) => out.set(key, [...(out.get(key) ?? []), r]);
  const first = new Map<number, HistoryRow>();
  for (const r of [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)) {
    if (r.reversedAt === null && !first.has(r.subscriberId)) first.set(r.subscriberId, r);
  }
  for (const r of rows) {
    if (dim === 'all') add('all', r);
    else if (dim === 'category') add(categoryKey(r.categoryId), r);
    else if (dim === 'medium') add(mediumKey(r.medium), r);
    else if (first.has(r.subscriberId)) add(first.get(r.subscriberId)!.channel, r);
  }
  return out;
}

async function expectSummariesEqualFormulas(): Promise<void> {
  await summariseMarked(t.deps.db);
  const rows = await storedHistory();
  const ranges: { from: string; to: string; group: ReportGroup }[] = [
    { from: '2026-01-01', to: '2026-02-28', group: 'month' },
    { from: '2025-12-15', to: '2026-03-20', group: 'month' }, // clipped ends, runs past now
    { from: '2026-01-01', to: '2026-01-31', group: 'week' },
    { from: '2026-01-05', to: '2026-01-20', group: 'day' },
    { from: '2026-03-01', to: '2026-03-12', group: 'day' }, // around now: grace not passed yet
    { from: '2026-02-02', to: '2026-03-15', group: 'week' }, // the current week: its churn so far and since the last midnight
  ];
  for (const dim of ['all', 'category', 'medium', 'channel'] as const) {
    const split = splitHistory(rows, dim);
    for (const r of ranges) {
      const range = { ...r, periods: periodsOf(r.from, r.to, r.group) };
      for (const grace of [0, 1, 3]) {
        const read = await summaryFigures(t.deps.db, dim, range, grace, NOW);
        for (const [key, history] of split) {
          expect({ dim, key, ...r, grace, ...read.get(key) }).toEqual({ dim, key, ...r, grace, ...retentionFigures(history, range, grace, NOW) });
        }
      }
    }
    const grids = await summaryCohorts(t.deps.db, dim, { from: '2025-07-01', to: '2026-03-31' });
    for (const [key, history] of split) {
      expect({ dim, key, grid: grids.get(key) }).toEqual({ dim, key, grid: cohortGrid(history, { from: '2025-07-01', to: '2026-03-31' }) });
    }
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const ref = await seedPeople(t);
  const p = {
    early: await ref.person('subscriber', 'Early E', '254722000011'),
    comeback: await ref.person('subscriber', 'Comeback C', '254722000012'),
    refunded: await ref.person('subscriber', 'Refunded R', '254722000013'),
    graceful: await ref.person('subscriber', 'Graceful G', '254722000014'),
    category: ref.d2.id,
    other: ref.ov.id,
  };
  people = p;
  const loyal = await ref.person('subscriber', 'Loyal L', '254722000015');
  const once = await ref.person('subscriber', 'Once O', '254722000016');
  await insertRows([...halfYearHistory(loyal, once, p.other), ...januaryHistory(p)]);
});
afterAll(() => t.close());

describe('the retention summaries', () => {
  it('give the formulas’ figures on the hand-made history', async () => {
    await expectSummariesEqualFormulas();
  });

  it('stay exact under concurrent purchases, one while the summaries are being written', async () => {
    const d2 = (await storedHistory()).find((r) => r.subscriberId === people.early)!.categoryId!;
    await Promise.all([
      insertRows([week(people.early, d2, '2026-01-21T08:00:00')]),
      insertRows([week(people.comeback, d2, '2026-02-02T08:00:00', { medium: 'web' })]),
      summariseMarked(t.deps.db),
      insertRows([week(people.graceful, d2, '2026-02-25T08:00:00'), week(people.graceful, d2, '2026-03-03T08:00:00', { source: 'balance', channel: 'balance' })]),
    ]);
    await expectSummariesEqualFormulas();
  });

  it('split the cohort grid by category, medium and channel, each grid the formulas’ on its share of the history', async () => {
    await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
    const admin = await t.tokenFor('boss@betdesk.test');
    const rows = await storedHistory();
    for (const dim of ['category', 'medium', 'channel'] as const) {
      const res = await t.as(admin, { method: 'GET', url: `/api/reports/cohorts?from=2025-07-01&to=2026-03-31&group_by=${dim}` });
      expect(res.statusCode).toBe(200);
      const groups = res.json<{ groups: { key: string; cohorts: { month: string; size: number; cells: { active: number }[] }[] }[] }>().groups;
      const split = splitHistory(rows, dim);
      expect(groups.map((g) => g.key).sort()).toEqual([...split.keys()].sort());
      for (const g of groups) {
        const expected = cohortGrid(split.get(g.key)!, { from: '2025-07-01', to: '2026-03-31' });
        expect(g.cohorts.map((c) => [c.month, c.size, c.cells.map((x) => x.active)])).toEqual(
          expected.map((c) => [c.month, c.size, c.cells.map((x) => x.active)]),
        );
      }
    }
    const refused = await t.as(admin, { method: 'GET', url: '/api/reports/cohorts?group_by=colour' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.group_by).toBeDefined();
  });

  it('take back a refunded purchase, including a first purchase (the channel moves)', async () => {
    const rows = await storedHistory();
    const firstOfEarly = rows.filter((r) => r.subscriberId === people.early).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0]!;
    const graceRenewal = rows.find((r) => r.subscriberId === people.graceful && r.createdAt.getTime() === nairobi('2026-01-17T12:00:00').getTime())!;
    await Promise.all([
      t.deps.db.update(subscriptions).set({ reversedAt: nairobi('2026-01-06T10:00:00') }).where(eq(subscriptions.id, firstOfEarly.id)),
      t.deps.db.update(subscriptions).set({ reversedAt: nairobi('2026-01-18T10:00:00') }).where(eq(subscriptions.id, graceRenewal.id)),
    ]);
    await expectSummariesEqualFormulas();
  });

  it('are rebuilt from the subscriptions to the same figures (db:refresh-summaries), a purchase during the rebuild marked and summarised', async () => {
    const d2 = (await storedHistory()).find((r) => r.subscriberId === people.early)!.categoryId!;
    await Promise.all([rebuildRetentionSummaries(t.deps.db), insertRows([week(people.comeback, d2, '2026-03-04T08:00:00')])]);
    await expectSummariesEqualFormulas();
  });
});
