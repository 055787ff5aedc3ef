import { BUSINESS_TIME_ZONE, formatKes } from '@betdesk/contract';

/** KES as the business reads it, e.g. 'KES 1,250.00'. */
export function formatMoney(amount: number | string | null | undefined): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return formatKes(value);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// Numeric parts only, so the month names above stay the same whatever the ICU data says.
const nairobiParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function toDate(value: string | number | Date | null | undefined): Date | null {
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
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  if (!date) return '';
  const p = partsOf(date);
  return `${p.day} ${MONTHS[Number(p.month) - 1] ?? ''} ${p.year}, ${p.hour}:${p.minute}`;
}

/** 'dd MMM yyyy' in Africa/Nairobi. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  if (!date) return '';
  const p = partsOf(date);
  return `${p.day} ${MONTHS[Number(p.month) - 1] ?? ''} ${p.year}`;
}
