import { BUSINESS_TIME_ZONE } from './constants.ts';

/**
 * Dates as the business reads them, on screens and in CSV exports alike: Africa/Nairobi time,
 * 'dd MMM yyyy, HH:mm'. Month names are fixed here so they do not depend on the ICU data.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const nairobiParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function partsOf(date: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  const parts = { year: '', month: '', day: '', hour: '', minute: '' };
  for (const part of nairobiParts.formatToParts(date)) {
    if (part.type in parts) parts[part.type as keyof typeof parts] = part.value;
  }
  return parts;
}

/** 'dd MMM yyyy, HH:mm' in Africa/Nairobi, e.g. '05 Mar 2025, 14:30'; '' for no date. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  if (!date) return '';
  const p = partsOf(date);
  return `${p.day} ${MONTHS[Number(p.month) - 1] ?? ''} ${p.year}, ${p.hour}:${p.minute}`;
}

/** 'dd MMM yyyy' in Africa/Nairobi. */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  if (!date) return '';
  const p = partsOf(date);
  return `${p.day} ${MONTHS[Number(p.month) - 1] ?? ''} ${p.year}`;
}
