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

/** A tips price package (spec 3): `id` is the form's bet_category_price_id; duration in days. */
export const PricePackage = z.object({
  id: z.number(),
  name: z.string(),
  duration: z.number(),
  price: Kes,
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
});
export type PriceForm = z.input<typeof PriceForm>;

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
