import { describe, expect, it } from 'vitest';
import { defaultRange, periodsOf, periodStart, ReportQuery, ReportRangeQuery } from '@betdesk/contract';

describe('report periods (contract)', () => {
  it('starts weeks on Monday and months on the 1st', () => {
    expect(periodStart('2026-03-08', 'week')).toBe('2026-03-02'); // Sunday
    expect(periodStart('2026-03-09', 'week')).toBe('2026-03-09'); // Monday
    expect(periodStart('2027-01-01', 'week')).toBe('2026-12-28'); // a week across the new year
    expect(periodStart('2028-02-29', 'month')).toBe('2028-02-01');
    expect(periodStart('2026-03-08', 'day')).toBe('2026-03-08');
  });

  it('cuts a range into periods clipped to it, none missing', () => {
    expect(periodsOf('2026-12-30', '2027-01-12', 'week')).toEqual([
      { period: '2026-12-28', from: '2026-12-30', to: '2027-01-03' },
      { period: '2027-01-04', from: '2027-01-04', to: '2027-01-10' },
      { period: '2027-01-11', from: '2027-01-11', to: '2027-01-12' },
    ]);
    expect(periodsOf('2028-01-31', '2028-03-01', 'month').map((p) => [p.period, p.from, p.to])).toEqual([
      ['2028-01-01', '2028-01-31', '2028-01-31'],
      ['2028-02-01', '2028-02-01', '2028-02-29'],
      ['2028-03-01', '2028-03-01', '2028-03-01'],
    ]);
    expect(periodsOf('2026-03-01', '2026-03-31', 'day')).toHaveLength(31);
  });

  it('fills a missing range: 30 days, 12 weeks or 12 months ending today', () => {
    expect(defaultRange({ group: 'day' }, '2026-11-23')).toEqual({ from: '2026-10-25', to: '2026-11-23' });
    expect(defaultRange({ group: 'week' }, '2026-11-23')).toEqual({ from: '2026-09-07', to: '2026-11-23' });
    expect(periodsOf('2026-09-07', '2026-11-23', 'week')).toHaveLength(12);
    expect(defaultRange({ group: 'month' }, '2026-11-23')).toEqual({ from: '2025-12-01', to: '2026-11-23' });
    expect(defaultRange({ group: 'day', from: '2026-11-01' }, '2026-11-23')).toEqual({ from: '2026-11-01', to: '2026-11-23' });
  });

  it('caps the range by grouping and refuses a backwards one', () => {
    expect(ReportQuery.safeParse({ from: '2025-11-23', to: '2026-11-23', group: 'day' }).success).toBe(true); // 366 days
    const tooLong = ReportQuery.safeParse({ from: '2025-11-22', to: '2026-11-23', group: 'day' });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues[0]?.path).toEqual(['to']);
    expect(ReportQuery.safeParse({ from: '2025-11-22', to: '2026-11-23', group: 'week' }).success).toBe(true);
    expect(ReportQuery.safeParse({ from: '2020-01-01', to: '2026-11-23', group: 'month' }).success).toBe(false);
    expect(ReportRangeQuery.safeParse({ from: '2026-11-24', to: '2026-11-23' }).error?.issues[0]?.path).toEqual(['to']);
    expect(ReportQuery.parse({}).group).toBe('day');
  });
});
