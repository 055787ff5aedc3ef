import { describe, expect, it } from 'vitest';
import { addDays, periodsOf } from '@betdesk/contract';
import {
  cohortGrid,
  eventLog,
  lifetimeValue,
  NOT_ENOUGH_HISTORY,
  periodFigures,
  retentionFigures,
  type HistoryRow,
} from '../../src/modules/reports/retention-formulas.ts';
import { halfYearHistory, januaryHistory, nairobi } from './retention-history.ts';

const P = { early: 1, comeback: 2, refunded: 3, graceful: 4, category: 10, other: 11 };
const withIds = (rows: Omit<HistoryRow, 'id'>[]): HistoryRow[] => rows.map((r, i) => ({ id: i + 1, ...r }));
const history = withIds(januaryHistory(P));
const NOW = nairobi('2026-06-01T00:00:00');
const GRACE = 3;
const period = (from: string, to: string, group: 'day' | 'week' | 'month') => periodsOf(from, to, group)[0]!;

describe('the subscription event log', () => {
  it('tells new, renewal, reactivation after a gap, expiry without renewal and refund apart', () => {
    const log = eventLog(history, GRACE, NOW).map((e) => [e.kind, e.subscriberId, e.subscriptionId]);
    expect(log).toEqual([
      ['new', P.early, 1],
      ['new', P.comeback, 2],
      ['refund', P.refunded, 3],
      ['new', P.graceful, 4],
      ['renewal', P.early, 5], // bought before the first week ended
      ['expiry', P.comeback, 2], // nothing bought by 16 Jan (end + 3 days)
      ['renewal', P.graceful, 6], // two days after the end: inside the grace
      ['expiry', P.early, 5],
      ['expiry', P.graceful, 6],
      ['reactivation', P.comeback, 7], // twelve days after the end
      ['expiry', P.comeback, 7],
    ]);
  });

  it('records no expiry before the grace after the end has passed', () => {
    const log = eventLog(history, GRACE, nairobi('2026-01-20T00:00:00'));
    expect(log.filter((e) => e.kind === 'expiry').map((e) => e.subscriptionId)).toEqual([2]);
  });
});

describe('renewal rate', () => {
  it('is the share of the covers that ended in the period renewed within the grace', () => {
    const jan = periodFigures(history, period('2026-01-01', '2026-01-31', 'month'), 'month', GRACE, NOW);
    // Ended in January: early's two weeks, comeback's first, graceful's two; renewed: early's first, graceful's first.
    expect([jan.ended, jan.renewed, jan.renewal_rate]).toEqual([5, 2, 0.4]);
  });

  it('counts a renewal after the grace as none (the comeback)', () => {
    const noGrace = periodFigures(history, period('2026-01-01', '2026-01-31', 'month'), 'month', 1, NOW);
    expect([noGrace.ended, noGrace.renewed]).toEqual([5, 1]); // graceful came back after 2 days: late with a 1-day grace
  });

  it('leaves out covers whose grace has not passed yet', () => {
    const early = periodFigures(history, period('2026-01-01', '2026-01-31', 'month'), 'month', GRACE, nairobi('2026-01-20T00:00:00'));
    expect([early.ended, early.renewed]).toEqual([3, 2]);
  });
});

describe('churn', () => {
  it('counts the subscribers active at the start of a week who were not at its end', () => {
    const wk = (from: string) => periodFigures(history, period(from, addDays(from, 6), 'week'), 'week', GRACE, NOW);
    const second = wk('2026-01-12');
    expect([second.active_at_start, second.churned, second.churn_rate]).toEqual([3, 1, 1 / 3]); // comeback left
    const third = wk('2026-01-19');
    expect([third.active_at_start, third.churned, third.churn_rate]).toEqual([2, 2, 1]); // early and graceful left
  });

  it('has no churn rate for a period nobody was active at the start of', () => {
    const jan = periodFigures(history, period('2026-01-01', '2026-01-31', 'month'), 'month', GRACE, NOW);
    expect([jan.active_at_start, jan.churned, jan.churn_rate]).toEqual([0, 0, null]);
    const feb = periodFigures(history, period('2026-02-01', '2026-02-28', 'month'), 'month', GRACE, NOW);
    expect([feb.active_at_start, feb.churned, feb.churn_rate]).toEqual([1, 1, 1]);
  });
});

describe('income, ARPU and net revenue retention', () => {
  it('leaves the refund out of income and divides by the subscribers who paid', () => {
    const jan = periodFigures(history, period('2026-01-01', '2026-01-31', 'month'), 'month', GRACE, NOW);
    expect([jan.income_cents, jan.paying, jan.arpu_cents]).toEqual([60_000, 3, 20_000]);
  });

  it("divides this period's income from last period's payers by what they paid then", () => {
    const wk = periodFigures(history, period('2026-01-12', '2026-01-18', 'week'), 'week', GRACE, NOW);
    // Week of 5 Jan: early 200, comeback 100, graceful 100 = 400; week of 12 Jan: graceful 100 of theirs.
    expect([wk.base_cents, wk.retained_cents, wk.net_revenue_retention]).toEqual([40_000, 10_000, 0.25]);
  });

  it('sums the periods into the figures of the range', () => {
    const range = { from: '2026-01-01', to: '2026-02-28', group: 'month' as const, periods: periodsOf('2026-01-01', '2026-02-28', 'month') };
    const f = retentionFigures(history, range, GRACE, NOW);
    expect(f).toMatchObject({ renewal_rate: 2 / 6, churned: 1, churn_rate: 1, net_revenue_retention: 0, arpu: 200 });
    expect(f.periods.map((p) => p.income)).toEqual([600, 0]);
    expect([f.ltv, f.ltv_note]).toEqual([null, NOT_ENOUGH_HISTORY]);
  });
});

describe('lifetime value', () => {
  it('is the six-month monthly ARPU over the six-month average monthly churn', () => {
    const rows = withIds(halfYearHistory(1, 2, 10));
    // Income 7,000 over 7 monthly payers = KES 1,000; churn 0, 1/2, 0, 0, 0, 0 averages 1/12: KES 12,000.
    expect(lifetimeValue(rows, '2026-01-15', NOW)).toEqual({ ltv_cents: 1_200_000, note: null });
  });

  it('says "not enough history" under six months', () => {
    const rows = withIds(halfYearHistory(1, 2, 10)).filter((r) => r.createdAt >= nairobi('2025-08-01T00:00:00'));
    expect(lifetimeValue(rows, '2026-01-15', NOW)).toEqual({ ltv_cents: null, note: NOT_ENOUGH_HISTORY });
  });
});

describe('cohorts', () => {
  it("follows each month's new subscribers, the refunded one in none, its income the sum of its cells", () => {
    const grid = cohortGrid(history, { from: '2026-01-01', to: '2026-03-31' });
    expect(grid.map((c) => [c.month, c.size, c.income_cents])).toEqual([
      ['2026-01-01', 3, 60_000],
      ['2026-02-01', 0, 0],
      ['2026-03-01', 0, 0],
    ]);
    expect(grid[0]!.cells.map((c) => [c.month, c.active, c.share, c.income_cents])).toEqual([
      ['2026-01-01', 3, 1, 60_000],
      ['2026-02-01', 1, 1 / 3, 0], // the comeback's week runs into 1 February
      ['2026-03-01', 0, 0, 0],
    ]);
    const bought = history.filter((r) => r.reversedAt === null).reduce((s, r) => s + r.amountCents, 0);
    expect(grid.reduce((s, c) => s + c.cells.reduce((t, cell) => t + cell.income_cents, 0), 0)).toBe(bought);
  });
});
