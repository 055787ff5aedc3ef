import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { Kes } from './common.ts';
import { capReportRange, REPORT_GROUPS, reportRangeFields } from './reports.ts';

/**
 * Reports → Retention (admins): renewal rate, churn, net revenue retention, ARPU, lifetime value and
 * the monthly cohort grid, derived from the stored tips subscriptions (never typed). Every figure
 * can be split by bet category, medium or the channel of the subscriber's first purchase. The
 * formulas, with a worked example, are in docs/BUSINESS-RULES.md ("Retention figures").
 */

export const RETENTION_SPLITS = ['category', 'medium', 'channel'] as const;
export type RetentionSplit = (typeof RETENTION_SPLITS)[number];

/**
 * The levers a sale can be made by (decision 091). Only `code` (a promo code) and `none` are
 * recorded today; referral, agent, trial conversion and pause resumed join as one branch each of
 * the reports module's sale-lever query. Ordered by precedence: a sale with two levers counts
 * under the first of them (its discount and commission from both stay with it).
 */
export const SALE_LEVERS = ['agent', 'referral', 'trial', 'code', 'pause', 'none'] as const;
export type SaleLever = (typeof SALE_LEVERS)[number];
export const SALE_LEVER_LABELS: Record<SaleLever, string> = {
  agent: 'Agent',
  referral: 'Referred by a subscriber',
  trial: 'Trial conversion',
  code: 'Promo code',
  pause: 'Pause resumed',
  none: 'No lever',
};

/** The retention figures split as the summaries split them, or by lever (read from the stored sales). */
export const RETENTION_REPORT_SPLITS = [...RETENTION_SPLITS, 'lever'] as const;
export type RetentionReportSplit = (typeof RETENTION_REPORT_SPLITS)[number];

/**
 * How a subscriber's first purchase reached the business: the subscription's source, and for an STK
 * push where it was asked (the request's origin).
 */
export const FIRST_CHANNELS = ['paybill', 'stk', 'portal', 'ussd', 'sms', 'ratiba', 'staff', 'balance'] as const;
export type FirstChannel = (typeof FIRST_CHANNELS)[number];
export const FIRST_CHANNEL_LABELS: Record<FirstChannel, string> = {
  paybill: 'Paybill (C2B)',
  stk: 'STK push asked by staff',
  portal: 'Portal',
  ussd: 'USSD menu',
  sms: 'SMS keyword',
  ratiba: 'Automatic renewal (Ratiba)',
  staff: 'Recorded by staff',
  balance: 'Account balance',
};

/** The one-sentence formula shown beside each figure. */
export const RETENTION_FORMULAS = {
  renewal_rate:
    'Of the subscriptions that ended in the period (grace passed), the share whose subscriber bought the same category and medium again by the end plus the grace days.',
  churn_rate: 'Subscribers active at the start of the period who were no longer active at its end, over those active at its start.',
  net_revenue_retention:
    "Income in the period from the previous period's paying subscribers, over the income they brought in the previous period.",
  arpu: 'Income of the period (refunds left out) divided by the subscribers who paid in it.',
  ltv: 'Monthly ARPU of the last six months divided by their average monthly churn rate; needs six months of history.',
  cohorts: "For each month's new subscribers, the share active (or the income they brought) in each following month.",
} as const;

const groupField = { group: z.enum(REPORT_GROUPS, { message: 'group must be day, week or month' }).default('month') };

export const RetentionQuery = z
  .object({
    ...reportRangeFields,
    ...groupField,
    group_by: z.enum(RETENTION_REPORT_SPLITS, { message: 'group_by must be category, medium, channel or lever' }).optional(),
  })
  .superRefine(capReportRange);
export type RetentionQuery = z.output<typeof RetentionQuery>;

export const RetentionPeriod = z.object({
  period: z.string(),
  from: z.string(),
  to: z.string(),
  /** Subscriptions that ended in the period and whose grace has passed. */
  ended: z.number(),
  renewed: z.number(),
  renewal_rate: z.number().nullable(),
  active_at_start: z.number(),
  churned: z.number(),
  churn_rate: z.number().nullable(),
  income: Kes,
  paying: z.number(),
  arpu: Kes.nullable(),
  net_revenue_retention: z.number().nullable(),
});
export type RetentionPeriod = z.infer<typeof RetentionPeriod>;

export const RetentionFigures = z.object({
  renewal_rate: z.number().nullable(),
  churn_rate: z.number().nullable(),
  churned: z.number(),
  net_revenue_retention: z.number().nullable(),
  arpu: Kes.nullable(),
  /** Null with `ltv_note` when there is not enough history (or no churn to divide by). */
  ltv: Kes.nullable(),
  ltv_note: z.string().nullable(),
  periods: z.array(RetentionPeriod),
});
export type RetentionFigures = z.infer<typeof RetentionFigures>;

/**
 * What a lever's own sales in the range brought and cost (split by lever only): the sales it made,
 * their income (refunds left out), the discount given on them and the commission owed for them.
 */
export const LeverSales = z.object({ sales: z.number(), income: Kes, discount: Kes, commission: Kes });
export type LeverSales = z.infer<typeof LeverSales>;

export const retentionReport = endpoint({
  method: 'GET',
  path: '/api/reports/retention',
  tag: 'reports',
  summary: 'Renewal rate, churn, net revenue retention, ARPU and lifetime value of tips subscribers per period, optionally split',
  access: 'view:reports',
  query: RetentionQuery,
  response: RetentionFigures.extend({
    from: z.string(),
    to: z.string(),
    group: z.enum(REPORT_GROUPS),
    grace_days: z.number(),
    formulas: z.record(z.string(), z.string()),
    /** One entry per value of `group_by` (empty without it). */
    groups: z.array(RetentionFigures.extend({ key: z.string(), label: z.string(), lever_sales: LeverSales.optional() })),
    /** Free trials started and converted (by a paid subscription) in the range, counted apart from every figure above (decision 089). */
    trials: z.object({ started: z.number(), converted: z.number() }),
  }),
});

export const COHORT_MEASURES = ['subscribers', 'income'] as const;

/** Cohorts are months: the range is capped as a report by month is. */
export const CohortQuery = z
  .object({
    ...reportRangeFields,
    by: z.enum(COHORT_MEASURES, { message: 'by must be subscribers or income' }).default('subscribers'),
    /** Split as the other figures are: a grid per category, medium or channel of the first purchase. */
    group_by: z.enum(RETENTION_REPORT_SPLITS, { message: 'group_by must be category, medium, channel or lever' }).optional(),
  })
  .superRefine(capReportRange);
export type CohortQuery = z.output<typeof CohortQuery>;

export const CohortCell = z.object({
  /** 0 is the cohort's own month. */
  offset: z.number(),
  month: z.string(),
  active: z.number(),
  share: z.number().nullable(),
  income: Kes,
});

const CohortRow = z.object({ month: z.string(), size: z.number(), income: Kes, cells: z.array(CohortCell) });

export const cohortsReport = endpoint({
  method: 'GET',
  path: '/api/reports/cohorts',
  tag: 'reports',
  summary: "Monthly cohorts of new tips subscribers: the share still active and the income they brought in each following month",
  access: 'view:reports',
  query: CohortQuery,
  response: z.object({
    from: z.string(),
    to: z.string(),
    by: z.enum(COHORT_MEASURES),
    formula: z.string(),
    cohorts: z.array(CohortRow),
    /** One grid per key of `group_by` (empty without it). */
    groups: z.array(z.object({ key: z.string(), label: z.string(), cohorts: z.array(CohortRow) })).default([]),
  }),
});

export const exportRetentionReport = csvExport({
  path: '/api/reports/retention/export',
  tag: 'reports',
  summary: 'CSV of the retention figures (one line per period, and per group when split)',
  access: 'view:reports',
  query: RetentionQuery,
});

export const exportCohortsReport = csvExport({
  path: '/api/reports/cohorts/export',
  tag: 'reports',
  summary: 'CSV of the cohort grid (one line per cohort and month)',
  access: 'view:reports',
  query: CohortQuery,
});

// ---- recovery of failed payment requests --------------------------------------------------------

export const RecoveryQuery = z
  .object({
    ...reportRangeFields,
    /**
     * Split as the other figures are: by the requested package's category or medium, or by the
     * channel of the subscriber's first purchase (where this request was asked when they have none).
     */
    group_by: z.enum(RETENTION_SPLITS, { message: 'group_by must be category, medium or channel' }).optional(),
  })
  .superRefine(capReportRange);
export type RecoveryQuery = z.output<typeof RecoveryQuery>;

export const RECOVERY_FORMULA =
  'Payments of a subscriber that arrived within 3 days after a retry or reminder was sent to them, each payment counted once.';

export const RecoveryFigures = z.object({
  /** retry: 1037, 1001; remind: 1, 1032; never: every other code. */
  failed_by_class: z.object({ retry: z.number(), remind: z.number(), never: z.number() }),
  retries: z.number(),
  reminders: z.number(),
  recovered_amount: Kes,
  recovered_payments: z.number(),
});
export type RecoveryFigures = z.infer<typeof RecoveryFigures>;

export const recoveryReport = endpoint({
  method: 'GET',
  path: '/api/reports/recovery',
  tag: 'reports',
  summary: 'Failed payment requests by recovery class, retries and reminders sent, and the amount recovered, optionally split',
  access: 'view:reports',
  query: RecoveryQuery,
  response: RecoveryFigures.extend({
    from: z.string(),
    to: z.string(),
    /** One entry per value of `group_by` (empty without it); the groups add up to the whole. */
    groups: z.array(RecoveryFigures.extend({ key: z.string(), label: z.string() })),
  }),
});

export const exportRecoveryReport = csvExport({
  path: '/api/reports/recovery/export',
  tag: 'reports',
  summary: 'CSV of the recovery figures',
  access: 'view:reports',
  query: RecoveryQuery,
});
