import { formatKes } from '@betdesk/contract';

/** KES as the business reads it, e.g. 'KES 1,250.00'. */
export function formatMoney(amount: number | string | null | undefined): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return formatKes(value);
}

/** Dates are formatted by the contract, so that screens and CSV exports read the same. */
export { formatDate, formatDateTime } from '@betdesk/contract';

/** A whole number with the business's thousands separators: 2,500. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-KE');
}

/** "1 client", "2,500 clients": the count and the noun in agreement. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}

/** A subscription length in days as every screen words it: "1 day", "7 days", "30 days". */
export function formatDuration(days: number | null | undefined): string {
  if (days === null || days === undefined) return '';
  return plural(days, 'day');
}
