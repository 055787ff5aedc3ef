import { describe, expect, it } from 'vitest';
import { presetOf, presetRange } from './date-presets.ts';

// Wednesday 2026-11-25, 22:30 in Nairobi (19:30 UTC).
const wednesdayNight = new Date('2026-11-25T19:30:00Z');
// Just after Nairobi midnight: still the 25th in UTC, already the 26th in Nairobi.
const afterNairobiMidnight = new Date('2026-11-25T21:05:00Z');

describe('date presets', () => {
  it('computes each preset in Africa/Nairobi days, weeks from Monday', () => {
    expect(presetRange('today', wednesdayNight)).toEqual({ from: '2026-11-25', to: '2026-11-25' });
    expect(presetRange('yesterday', wednesdayNight)).toEqual({ from: '2026-11-24', to: '2026-11-24' });
    expect(presetRange('this-week', wednesdayNight)).toEqual({ from: '2026-11-23', to: '2026-11-25' });
    expect(presetRange('last-7-days', wednesdayNight)).toEqual({ from: '2026-11-19', to: '2026-11-25' });
    expect(presetRange('this-month', wednesdayNight)).toEqual({ from: '2026-11-01', to: '2026-11-25' });
    expect(presetRange('last-month', wednesdayNight)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
  });

  it('turns the day at Nairobi midnight, not UTC midnight', () => {
    expect(presetRange('today', afterNairobiMidnight)).toEqual({ from: '2026-11-26', to: '2026-11-26' });
  });

  it('crosses a year and a Sunday correctly', () => {
    const sunday = new Date('2027-01-03T09:00:00Z');
    expect(presetRange('this-week', sunday)).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(presetRange('last-month', sunday)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('names the preset a range is, else custom or all', () => {
    expect(presetOf({}, wednesdayNight)).toBe('all');
    expect(presetOf({ from: '2026-11-19', to: '2026-11-25' }, wednesdayNight)).toBe('last-7-days');
    expect(presetOf({ from: '2026-11-02', to: '2026-11-05' }, wednesdayNight)).toBe('custom');
  });
});
