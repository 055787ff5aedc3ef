/**
 * Promo codes (decision 077): the admin's codes (percent or fixed KES off chosen packages, a start
 * and end, a cap on uses, one use per phone, first purchase only), the portal's price asked with a
 * code, and the promotion report per code.
 * Lives in: packages/contract/src/promo-codes.ts
 */
import { z } from 'zod';
import { Id, Kes, Notice, PageQuery } from './common.ts';
import { csvExport, endpoint } from './endpoint.ts';
import { ReportRangeQuery } from './reports.ts';
import { DailyDays } from './tips-prices.ts';

export const PROMO_KIND_LABELS = { percent: 'Percent off', fixed: 'KES off' } as const;
export type PromoKind = keyof typeof PROMO_KIND_LABELS;

/** A code as typed: letters and digits, compared without case (kept in capitals). */
export const PromoCodeText = z
  .string({ message: 'Enter the code' })
  .trim()
  .regex(/^[A-Za-z0-9]{3,20}$/, 'Letters and digits only, 3 to 20 of them')
  .transform((s) => s.toUpperCase());

const Moment = (name: string) => z.string({ message: `Enter the ${name}` }).refine((s) => !Number.isNaN(Date.parse(s)), `The ${name} must be a date and time`);

export const PromoCodeBody = z
  .object({
    code: PromoCodeText,
    kind: z.enum(['percent', 'fixed'], { message: 'Choose percent off or KES off' }),
    percent_off: z.number({ message: 'The percent off must be a whole number' }).int('The percent off must be a whole number').min(1, 'At least 1 %').max(100, 'At most 100 %').nullable().optional(),
    /** KES off (at most two decimals), kept in cents. */
    amount_off: Kes.min(0.01, 'At least KES 0.01').max(1_000_000, 'At most KES 1,000,000').nullable().optional(),
    package_ids: z.array(Id, { message: 'Choose the packages' }).min(1, 'Choose at least one package').max(200),
    starts_on: Moment('start'),
    ends_on: Moment('end'),
    max_uses: z.number({ message: 'The cap must be a whole number' }).int('The cap must be a whole number').min(1, 'At least 1 use').max(10_000_000).nullable().optional(),
    one_per_phone: z.boolean({ message: 'Say whether a phone may use it once only' }).default(true),
    first_purchase_only: z.boolean({ message: 'Say whether it is for a first purchase only' }).default(false),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'percent' && (b.percent_off === null || b.percent_off === undefined)) ctx.addIssue({ code: 'custom', path: ['percent_off'], message: 'Enter the percent off' });
    if (b.kind === 'fixed' && (b.amount_off === null || b.amount_off === undefined)) ctx.addIssue({ code: 'custom', path: ['amount_off'], message: 'Enter the KES off' });
    if (b.kind === 'fixed' && typeof b.amount_off === 'number' && Math.round(b.amount_off * 100) !== b.amount_off * 100) ctx.addIssue({ code: 'custom', path: ['amount_off'], message: 'At most two decimals' });
    if (!Number.isNaN(Date.parse(b.starts_on)) && !Number.isNaN(Date.parse(b.ends_on)) && Date.parse(b.ends_on) <= Date.parse(b.starts_on)) {
      ctx.addIssue({ code: 'custom', path: ['ends_on'], message: 'The end must be after the start' });
    }
  });
export type PromoCodeBody = z.infer<typeof PromoCodeBody>;

export const PromoCode = z.object({
  id: z.number(),
  code: z.string(),
  kind: z.enum(['percent', 'fixed']),
  percent_off: z.number().nullable(),
  amount_off: Kes.nullable(),
  package_ids: z.array(z.number()),
  packages: z.array(z.string()),
  starts_on: z.string(),
  ends_on: z.string(),
  max_uses: z.number().nullable(),
  uses: z.number(),
  one_per_phone: z.boolean(),
  first_purchase_only: z.boolean(),
  created_on: z.string(),
});
export type PromoCode = z.infer<typeof PromoCode>;

export const createPromoCode = endpoint({
  method: 'POST',
  path: '/api/promotions/codes',
  tag: 'promotions',
  summary: 'Create a promo code (unique without case); 422 naming the field',
  access: 'manage:promo-codes',
  body: PromoCodeBody,
  response: Notice.extend({ code: PromoCode }),
});

export const updatePromoCode = endpoint({
  method: 'PUT',
  path: '/api/promotions/codes/:id',
  tag: 'promotions',
  summary: 'Change a promo code (its uses so far stay; a cap below them is refused)',
  access: 'manage:promo-codes',
  body: PromoCodeBody,
  response: Notice.extend({ code: PromoCode }),
});

export const promoCodeList = endpoint({
  method: 'GET',
  path: '/api/promotions/codes',
  tag: 'promotions',
  summary: 'Promo codes, newest first, with their uses',
  access: 'manage:promo-codes',
  query: PageQuery,
  response: z.object({ total_records: z.number(), codes: z.array(PromoCode) }),
});

export const portalPrice = endpoint({
  method: 'POST',
  path: '/api/portal/price',
  tag: 'portal',
  summary: "The price asked for a package (a daily one's for the days asked) with a promo code (a wrong, expired or spent code is 422 on `code` saying why, in the phone's language)",
  access: 'portal',
  body: z.object({
    package_id: z.coerce.number({ message: 'Choose one of the listed packages' }).int().min(1, 'Choose one of the listed packages').max(2_147_483_647),
    code: z.string({ message: 'Enter the promo code' }).trim().max(40, 'Enter the promo code'),
    /** The days asked of a daily package (decision 095): the price is for them all; ignored for another package. */
    days: DailyDays.optional(),
  }),
  response: z.object({ package_id: z.number(), code: z.string(), days: z.number().nullable(), list_price: Kes, discount: Kes, price: Kes }),
});

/** One code's row of the promotion report. */
export const PromotionReportRow = z.object({
  code_id: z.number(),
  code: z.string(),
  uses: z.number(),
  income: Kes,
  discount: Kes,
  renewed_30: z.number(),
  renewed_90: z.number(),
});
export type PromotionReportRow = z.infer<typeof PromotionReportRow>;

export const promotionReport = endpoint({
  method: 'GET',
  path: '/api/reports/promotions',
  tag: 'reports',
  summary: 'Per promo code over a range: sales made, income, discount given, and buyers who bought again within 30 and 90 days',
  access: 'view:reports',
  query: ReportRangeQuery,
  response: z.object({ from: z.string(), to: z.string(), rows: z.array(PromotionReportRow) }),
});

export const exportPromotionReport = csvExport({
  path: '/api/reports/promotions/export',
  tag: 'reports',
  summary: 'CSV of the promotion report',
  access: 'view:reports',
  query: ReportRangeQuery,
});

export const promoCodeTexts = {
  created: 'Promo code created',
  updated: 'Promo code saved',
  taken: 'Another code is already called that',
  noPackage: 'Choose packages that are on sale',
  capBelowUses: 'The cap is below the uses already made',
  notFound: 'No such promo code',
} as const;
