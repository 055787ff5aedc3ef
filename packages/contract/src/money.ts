import { CURRENCY } from './constants.ts';

/**
 * Money, the one home of its conversions (docs/decisions/027-money-figures-defined-once.md). The
 * database and the server count integer cents; the wire, the screens and the exports show KES.
 * Cents arrive as the drivers give them: a number, a numeric string (bigint and sum() columns) or
 * a bigint. Raw rows are typed `unknown`, so the readers of a database value take `unknown` and
 * read it as one of these.
 */
export type Cents = number | string | bigint;

type DatabaseCents = Cents | null | undefined | unknown;

/** Cents to KES on the wire: 123450 -> 1234.5; no cents (null) is 0. */
export function centsToKes(cents: DatabaseCents): number {
  return cents == null ? 0 : Number(cents) / 100;
}

/** The same where an absent amount stays absent (an optional column): null -> null. */
export function centsToKesOrNull(cents: DatabaseCents): number | null {
  return cents == null ? null : Number(cents) / 100;
}

/** KES as typed in a form or sent by M-Pesa to integer cents: 1234.5 -> 123450. */
export function kesToCents(kes: number): number {
  return Math.round(kes * 100);
}

/** Cents rounded up to whole shillings (M-Pesa takes no cents): 9950 -> 10000. */
export function wholeShillingsUp(cents: number): number {
  return Math.ceil(cents / 100) * 100;
}

/**
 * Cents as a KES figure with exactly two decimals, exact for any size (the digits are moved, not
 * divided): 123450 -> '1234.50', -5 -> '-0.05'. `grouped` adds thousands separators: '1,234.50'.
 * Receipts, CSV-like texts and the money checks read it.
 */
export function kesFixed(cents: DatabaseCents, options: { grouped?: boolean } = {}): string {
  const exact =
    typeof cents === 'bigint' ? cents
    : typeof cents === 'string' && /^-?\d+$/.test(cents) ? BigInt(cents)
    : BigInt(Math.round(Number(cents ?? 0)));
  const text = exact.toString();
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).padStart(3, '0');
  const whole = digits.slice(0, -2);
  return `${negative ? '-' : ''}${options.grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole}.${digits.slice(-2)}`;
}

// The ISO code, not the en-KE symbol 'Ksh': the spec's currency is Kshs./KES (section 9).
const kesFormat = new Intl.NumberFormat('en-KE', { style: 'currency', currency: CURRENCY, currencyDisplay: 'code' });

/** An amount in KES as the business reads it, on screens and in messages: 1250 -> 'KES 1,250.00'. */
export function formatKes(kes: number): string {
  return kesFormat.format(kes);
}

/** The same from cents: 125000 -> 'KES 1,250.00'. */
export function formatCents(cents: Cents): string {
  return formatKes(centsToKes(cents));
}

/**
 * KES on a phone's small screen (USSD menus, the SMS that follows them): no separators, and no
 * decimals when the cents are zero: 150000 -> 'KES 1500', 9950 -> 'KES 99.50'.
 */
export function compactKes(cents: Cents): string {
  const n = Number(cents);
  return `${CURRENCY} ${n % 100 === 0 ? n / 100 : kesFixed(cents)}`;
}

const shortKesFormat = new Intl.NumberFormat('en-KE', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** A price on the public pages: separators, no decimals when whole: 1250 -> 'KES 1,250', 99.5 -> 'KES 99.5'. */
export function formatKesShort(kes: number): string {
  return `${CURRENCY} ${shortKesFormat.format(kes)}`;
}
