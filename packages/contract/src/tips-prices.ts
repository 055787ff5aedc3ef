import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Id, Kes, Notice } from './common.ts';

export const TIPS_MEDIA_LABELS = { sms: 'SMS', web: 'Web' } as const;
export type TipsMediumKey = keyof typeof TIPS_MEDIA_LABELS;

/** A duration in days as staff say it: 7 -> "1 Week", 30 -> "1 Month", 3 -> "3 Days". */
export function durationLabel(days: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (days % 365 === 0) return plural(days / 365, 'Year');
  if (days % 30 === 0) return plural(days / 30, 'Month');
  if (days % 7 === 0) return plural(days / 7, 'Week');
  return plural(days, 'Day');
}

/**
 * How a package is priced (decision 095): `period`, the price buys its whole duration; `daily`, the
 * price is one day's (the package is one day long) and a purchase buys 1 to `DAILY_DAYS_MAX` days.
 */
export const PACKAGE_BILLINGS = ['period', 'daily'] as const;
export type PackageBilling = (typeof PACKAGE_BILLINGS)[number];

/** The most days one purchase of a daily package buys (a month, as Ratiba's longest period). */
export const DAILY_DAYS_MAX = 30;

/** The days a punter asks of a daily package: a whole number from 1 to `DAILY_DAYS_MAX`. */
export const DailyDays = z.coerce
  .number({ message: `Choose from 1 to ${DAILY_DAYS_MAX} days` })
  .int(`Choose from 1 to ${DAILY_DAYS_MAX} days`)
  .min(1, `Choose from 1 to ${DAILY_DAYS_MAX} days`)
  .max(DAILY_DAYS_MAX, `Choose from 1 to ${DAILY_DAYS_MAX} days`);

/**
 * What `days` of a daily package cost: days x the day price, exactly (integer cents). A package
 * priced for its length costs its price whatever is asked.
 */
export function priceForDays(p: { billing: PackageBilling; priceCents: number }, days: number): number {
  return p.billing === 'daily' ? p.priceCents * days : p.priceCents;
}

/**
 * The days a payment buys of a daily package at its day price: a whole multiple of it from 1 to
 * `DAILY_DAYS_MAX` days, else null (the amount buys nothing of it, decision 095).
 */
export function daysPaidFor(dayPriceCents: number, amountCents: number): number | null {
  if (dayPriceCents <= 0 || amountCents <= 0 || amountCents % dayPriceCents !== 0) return null;
  const days = amountCents / dayPriceCents;
  return days <= DAILY_DAYS_MAX ? days : null;
}

/** A tips price package (spec 3): `id` is the form's bet_category_price_id; duration in days; a daily one's price is per day. */
export const PricePackage = z.object({
  id: z.number(),
  name: z.string(),
  duration: z.number(),
  price: Kes,
  billing: z.enum(PACKAGE_BILLINGS),
});
export type PricePackage = z.infer<typeof PricePackage>;

export const PRICE_MAX = 1_000_000;

/** A price in KES as typed: a positive amount with at most two decimals. */
export const PriceInput = z
  .union([z.number(), z.string()], { message: 'The price must be a positive amount' })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim().replace(/,/g, '');
    const amount = Number(text);
    if (text === '' || !/^\d+(\.\d{1,2})?$/.test(text) || !Number.isFinite(amount) || amount <= 0) {
      ctx.addIssue({ code: 'custom', message: 'The price must be a positive amount, like 250 or 99.50' });
      return z.NEVER;
    }
    if (amount > PRICE_MAX) {
      ctx.addIssue({ code: 'custom', message: `The price may not be more than KES ${PRICE_MAX.toLocaleString('en-KE')}` });
      return z.NEVER;
    }
    return amount;
  });

export const PriceForm = z.object({
  bet_category_price_id: Id,
  name: z
    .string({ message: 'The name is required' })
    .trim()
    .min(1, 'The name is required')
    .max(100, 'The name may not be longer than 100 characters'),
  price: PriceInput,
  /** Sold by the day (decision 095): the price is then one day's; only a 1-day package may be. */
  daily: z.boolean({ message: 'Say whether the package is sold by the day' }).default(false),
});
export type PriceForm = z.input<typeof PriceForm>;

export const dailyTexts = {
  oneDayOnly: 'Only a 1-day package can be sold by the day: add a 1-day package and mark it daily',
  wholeShillings: 'A day price must be whole shillings (M-Pesa takes no cents), like 20',
} as const;

export const webTipsPrices = endpoint({
  method: 'GET',
  path: '/api/tips/prices/web-tips',
  tag: 'tips-prices',
  summary: 'Price packages of web tips',
  access: 'manage:tips-prices',
  response: z.object({ packages: z.array(PricePackage) }),
});

export const smsTipsPrices = endpoint({
  method: 'GET',
  path: '/api/tips/prices/sms-tips',
  tag: 'tips-prices',
  summary: 'Price packages of SMS tips',
  access: 'manage:tips-prices',
  response: z.object({ packages: z.array(PricePackage) }),
});

export const updatePrice = endpoint({
  method: 'POST',
  path: '/api/tips/prices/update',
  tag: 'tips-prices',
  summary: "Rename a package or change its price (audited)",
  access: 'manage:tips-prices',
  body: PriceForm,
  response: Notice,
});
