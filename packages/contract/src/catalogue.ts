import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { ChoiceId, Id, Kes, Notice } from './common.ts';
import { PriceInput, TIPS_MEDIA_LABELS, type TipsMediumKey } from './tips-prices.ts';
import { RECORD_BLOCK_ALL } from './tips-winnings.ts';

/**
 * The reference data a business needs before it can sell anything (bet categories, post
 * categories, Bet4Me plans, tips packages). The spec has no screen for it; an admin keeps it
 * under Catalogue. Rows are edited, never deleted: subscriptions, payments and posts point at them.
 */

const Name = z
  .string({ message: 'The name is required' })
  .trim()
  .min(1, 'The name is required')
  .max(100, 'The name may not be longer than 100 characters');

/** The id of the row being edited; absent (or blank) when adding. */
const EditedId = z.preprocess((v) => (v === '' || v === null ? undefined : v), Id.optional());

export const BET_CATEGORY_CODE_MAX = 10;

/** What a payer types as the M-Pesa account number: letters and digits, stored upper-case. */
export const BetCategoryCode = z
  .string({ message: 'The code is required' })
  .trim()
  .min(1, 'The code is required')
  .transform((value) => value.replace(/\s+/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .max(BET_CATEGORY_CODE_MAX, `The code may not be longer than ${BET_CATEGORY_CODE_MAX} characters`)
      .regex(/^[A-Z0-9]+$/, 'The code may only hold letters and digits, like D2')
      // A record block of the Winnings & Results page names its category by code, and ALL by this one.
      .refine((code) => code !== RECORD_BLOCK_ALL, `${RECORD_BLOCK_ALL} stands for every category in a record block; choose another code`),
  );

export const DURATION_MAX_DAYS = 366;

/** A duration in whole days, 1 to 366, as typed. */
export const DurationDays = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
  z
    .number({ error: 'The duration in days is required' })
    .int('The duration must be a whole number of days')
    .min(1, 'The duration must be at least 1 day')
    .max(DURATION_MAX_DAYS, `The duration may not be more than ${DURATION_MAX_DAYS} days`),
);

export const BetCategoryRow = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  sms_packages: z.number(),
  web_packages: z.number(),
});
export type BetCategoryRow = z.infer<typeof BetCategoryRow>;

/** `public`: its posts are free tips, shown in full on the subscriber portal's public pages. */
export const PostCategoryRow = z.object({ id: z.number(), name: z.string(), posts: z.number(), public: z.boolean() });
export type PostCategoryRow = z.infer<typeof PostCategoryRow>;

export const PlanRow = z.object({
  id: z.number(),
  name: z.string(),
  duration: z.number(),
  price: Kes,
  active: z.boolean(),
  subscriptions: z.number(),
});
export type PlanRow = z.infer<typeof PlanRow>;

export const BetCategoryForm = z.object({ id: EditedId, name: Name, code: BetCategoryCode });
export type BetCategoryForm = z.input<typeof BetCategoryForm>;

export const PostCategoryForm = z.object({
  id: EditedId,
  name: Name,
  public: z.boolean({ message: 'Say whether its posts are free tips' }).default(false),
});
export type PostCategoryForm = z.input<typeof PostCategoryForm>;

export const PlanForm = z.object({
  id: EditedId,
  name: Name,
  duration: DurationDays,
  price: PriceInput,
  active: z.boolean({ message: 'Say whether the plan is on sale' }).default(true),
});
export type PlanForm = z.input<typeof PlanForm>;

const MEDIA = Object.keys(TIPS_MEDIA_LABELS) as [TipsMediumKey, ...TipsMediumKey[]];

/** A new tips package: bet category x medium x duration, unique, at a price. */
export const PackageForm = z.object({
  bet_category_id: ChoiceId('Choose a bet category'),
  medium: z.enum(MEDIA, { message: 'Choose SMS or Web' }),
  name: Name,
  duration: DurationDays,
  price: PriceInput,
});
export type PackageForm = z.input<typeof PackageForm>;

export const catalogueTexts = {
  betCategorySaved: 'Bet category saved successfully',
  postCategorySaved: 'Post category saved successfully',
  planSaved: 'Plan saved successfully',
  packageAdded: 'Package added successfully',
  codeTaken: 'Another bet category already has this code',
  postCategoryTaken: 'Another post category already has this name',
  packageTaken: 'This bet category already has a package of this medium and duration',
  noBetCategory: 'This bet category does not exist.',
  noPostCategory: 'This post category does not exist.',
  noPlan: 'This plan does not exist.',
} as const;

export const getCatalogue = endpoint({
  method: 'GET',
  path: '/api/catalogue',
  tag: 'catalogue',
  summary: 'Bet categories (with package counts), post categories and Bet4Me plans',
  access: 'manage:catalogue',
  response: z.object({
    bet_categories: z.array(BetCategoryRow),
    post_categories: z.array(PostCategoryRow),
    plans: z.array(PlanRow),
  }),
});

export const storeBetCategory = endpoint({
  method: 'POST',
  path: '/api/catalogue/bet-categories/store',
  tag: 'catalogue',
  summary: 'Add a bet category, or rename one / change its code when id is given (audited)',
  access: 'manage:catalogue',
  body: BetCategoryForm,
  response: Notice,
});

export const storePostCategory = endpoint({
  method: 'POST',
  path: '/api/catalogue/post-categories/store',
  tag: 'catalogue',
  summary: 'Add a post category, or rename one when id is given (audited)',
  access: 'manage:catalogue',
  body: PostCategoryForm,
  response: Notice,
});

export const storePlan = endpoint({
  method: 'POST',
  path: '/api/catalogue/plans/store',
  tag: 'catalogue',
  summary: 'Add a Bet4Me plan, or edit one (name, duration, price, on sale) when id is given (audited)',
  access: 'manage:catalogue',
  body: PlanForm,
  response: Notice,
});

export const storePackage = endpoint({
  method: 'POST',
  path: '/api/tips/prices/store',
  tag: 'tips-prices',
  summary: 'Add a tips price package for a bet category, medium and duration (audited)',
  access: 'manage:tips-prices',
  body: PackageForm,
  response: Notice,
});
