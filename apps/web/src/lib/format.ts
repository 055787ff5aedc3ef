import { formatKes } from '@betdesk/contract';

/** KES as the business reads it, e.g. 'KES 1,250.00'. */
export function formatMoney(amount: number | string | null | undefined): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return formatKes(value);
}

/** Dates are formatted by the contract, so that screens and CSV exports read the same. */
export { formatDate, formatDateTime } from '@betdesk/contract';
