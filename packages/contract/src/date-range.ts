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
