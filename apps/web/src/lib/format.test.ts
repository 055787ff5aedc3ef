import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney } from './format.ts';

describe('format', () => {
  it('formats money as KES with the currency code (spec 9), never Ksh', () => {
    expect(formatMoney(1250.5)).toBe('KES\u00a01,250.50');
    expect(formatMoney(1250.5).replace(/\s/g, ' ')).toBe('KES 1,250.50');
    expect(formatMoney('99')).toMatch(/^KES\s99\.00$/);
    expect(formatMoney(-50)).toMatch(/^-KES\s50\.00$/);
    expect(formatMoney(50)).not.toMatch(/Ksh/);
    expect(formatMoney(null)).toBe('');
  });

  it('shows times in Africa/Nairobi (UTC+3)', () => {
    expect(formatDateTime('2025-03-05T11:30:00Z')).toBe('05 Mar 2025, 14:30');
    expect(formatDateTime('2025-09-30T22:15:00Z')).toBe('01 Oct 2025, 01:15');
    expect(formatDate('2025-12-31T21:00:00Z')).toBe('01 Jan 2026');
  });

  it('reads every date as Intl does in Africa/Nairobi, across the zone’s past offset changes', () => {
    // Nairobi kept local mean time (UTC+2:27:16), then +2:30, +3, +2:30 and +2:45 before settling on
    // +3 in 1942: the cached offsets must agree with Intl on both sides of each change, to the
    // minute. Every 97 minutes over 1900–1945, every 29 over recent years.
    const intl = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Africa/Nairobi',
      year: 'numeric',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const expected = (date: Date) => {
      const p = Object.fromEntries(intl.formatToParts(date).map((part) => [part.type, part.value]));
      return `${p.day} ${p.month?.slice(0, 3)} ${p.year}, ${p.hour}:${p.minute}`;
    };
    const mismatches: string[] = [];
    const check = (from: string, to: string, stepMinutes: number) => {
      for (let ms = Date.parse(from); ms < Date.parse(to); ms += stepMinutes * 60_000 + 13_000) {
        const date = new Date(ms);
        if (formatDateTime(date) !== expected(date)) mismatches.push(`${date.toISOString()}: ${formatDateTime(date)} vs ${expected(date)}`);
      }
    };
    check('1900-01-01T00:00:00Z', '1945-01-01T00:00:00Z', 97);
    check('2024-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 29);
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The hours around each change of offset, minute by minute.
    check('1908-04-30T20:00:00Z', '1908-05-01T00:00:00Z', 1);
    check('1928-06-30T20:00:00Z', '1928-07-01T00:00:00Z', 1);
    check('1930-01-04T19:00:00Z', '1930-01-04T23:00:00Z', 1);
    check('1936-12-31T20:00:00Z', '1937-01-01T00:00:00Z', 1);
    check('1942-07-31T20:00:00Z', '1942-08-01T00:00:00Z', 1);
    expect(mismatches.slice(0, 5)).toEqual([]);
  }, 180_000); // about 300,000 dates: a bound for a hung test on a loaded two-core CI machine (52 s seen), not a timing

  it('shows nothing for a missing or bad date', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});
