import { z } from 'zod';
import { BusinessDay } from './lists.ts';

/**
 * `from`/`to` of a report or of a list outside LISTS: inclusive Africa/Nairobi business days,
 * either may be absent. A range that ends before it starts names `to`, as the lists do.
 */
export const dateRangeFields = { from: BusinessDay.optional(), to: BusinessDay.optional() };

/** Refuses a range whose end comes before its start (on `to`). */
export function endsAfterStart(v: { from?: string | undefined; to?: string | undefined }): boolean {
  return !v.from || !v.to || v.from <= v.to;
}
export const rangeOrderError = { path: ['to'], message: 'The end date is before the start date' };

export const DateRangeQuery = z.object(dateRangeFields).refine(endsAfterStart, rangeOrderError);
export type DateRangeQuery = z.infer<typeof DateRangeQuery>;

/** Kenya keeps UTC+3 all year: a Nairobi day starts at 21:00 UTC the day before. */
const NAIROBI_OFFSET_MS = 3 * 60 * 60 * 1000;

/** The instant a Nairobi day starts. */
export function nairobiDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - NAIROBI_OFFSET_MS);
}

/** The Nairobi day (YYYY-MM-DD) an instant falls on. */
export function nairobiDayOf(at: Date): string {
  return new Date(at.getTime() + NAIROBI_OFFSET_MS).toISOString().slice(0, 10);
}

/** [start, end) instants of an inclusive range of Nairobi days; an open side stays undefined. */
export function nairobiRange(range: { from?: string | undefined; to?: string | undefined }): { start?: Date; end?: Date } {
  const out: { start?: Date; end?: Date } = {};
  if (range.from) out.start = nairobiDayStart(range.from);
  if (range.to) out.end = new Date(nairobiDayStart(range.to).getTime() + 24 * 60 * 60 * 1000);
  return out;
}

/**
 * The date-range presets of the dated lists, computed in Africa/Nairobi days: "today" is the
 * business's today whatever the browser's zone. Weeks start on Monday. Shared by the lists' filter
 * and the record blocks of the Winnings & Results page, which the server renders.
 */
export const DATE_PRESETS = ['today', 'yesterday', 'this-week', 'last-7-days', 'this-month', 'last-month'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export interface DayRange {
  from: string;
  to: string;
}

/** The inclusive Nairobi days a preset covers at the instant `now`. */
export function presetRange(preset: DatePreset, now: Date = new Date()): DayRange {
  const today = nairobiDayOf(now);
  const [year, month] = today.split('-').map(Number) as [number, number];
  const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const day = addDays(today, -1);
      return { from: day, to: day };
    }
    case 'this-week': {
      const weekday = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 = Sunday
      return { from: addDays(today, -((weekday + 6) % 7)), to: today };
    }
    case 'last-7-days':
      return { from: addDays(today, -6), to: today };
    case 'this-month':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'last-month': {
      const first = new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10);
      const last = new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);
      return { from: first, to: last };
    }
  }
}
