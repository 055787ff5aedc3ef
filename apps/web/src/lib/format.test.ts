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

  it('shows nothing for a missing or bad date', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});
