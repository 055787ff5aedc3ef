import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { Notice, PageQuery } from './common.ts';
import { KenyanPhone } from './phone.ts';
import { ReportRangeQuery } from './reports.ts';

/**
 * Self-exclusion and the under-18 mark (decision 059, Gambling Control Act 2025): a person excludes
 * themselves for 30, 90 or 180 days or for good, by USSD, on the portal, by SMS keyword or through
 * staff; nobody ends it early. Staff mark a person under 18. Both block every sale.
 */

export const EXCLUSION_PERIOD_VALUES = ['30', '90', '180', 'forever'] as const;
export type ExclusionPeriodValue = (typeof EXCLUSION_PERIOD_VALUES)[number];
export const EXCLUSION_CHANNEL_VALUES = ['ussd', 'portal', 'sms', 'staff'] as const;

export const EXCLUSION_PERIOD_LABELS: Record<ExclusionPeriodValue, string> = {
  '30': '30 days',
  '90': '90 days',
  '180': '180 days',
  forever: 'For good',
};

export const exclusionTexts = {
  recorded: 'Self-exclusion recorded: no sale, offer or reminder reaches this person until it ends',
  extended: 'Self-exclusion recorded: it runs beside the one already running, to the later end',
  under18Marked: 'Marked as under 18: no sale can be made to this person',
  under18Already: 'This person is already marked as under 18',
  period: 'Choose 30, 90, 180 days or for good',
  channel: 'Choose how the person asked: ussd, portal, sms or staff',
} as const;

const Period = z.enum(EXCLUSION_PERIOD_VALUES, { message: exclusionTexts.period });
const Note = z.string().trim().max(500, 'At most 500 characters');

export const SelfExclusion = z.object({
  id: z.number(),
  phone: z.string().nullable(),
  period: z.enum(EXCLUSION_PERIOD_VALUES),
  channel: z.enum(EXCLUSION_CHANNEL_VALUES),
  starts_at: z.string(),
  /** Null: for good. */
  ends_at: z.string().nullable(),
  running: z.boolean(),
  recorded_by: z.string().nullable(),
  note: z.string().nullable(),
  end_told_at: z.string().nullable(),
});
export type SelfExclusion = z.infer<typeof SelfExclusion>;

export const ExclusionCounts = z.object({
  running: z.number(),
  for_good: z.number(),
  ended: z.number(),
  under_18: z.number(),
  /** Payments kept (not sold) because the payer is excluded or under 18. */
  refused_sales: z.number(),
  by_channel: z.record(z.string(), z.number()),
});

export const selfExclusions = endpoint({
  method: 'GET',
  path: '/api/exclusions',
  tag: 'exclusions',
  summary: 'The self-exclusion register, newest first, with its counts; search by phone',
  access: 'view:exclusions',
  query: PageQuery.extend({ search: z.string().trim().max(20).default('') }),
  response: z.object({ total_records: z.number(), exclusions: z.array(SelfExclusion), counts: ExclusionCounts }),
});

export const recordSelfExclusion = endpoint({
  method: 'POST',
  path: '/api/exclusions',
  tag: 'exclusions',
  summary: "Staff record a self-exclusion on the person's request (audited with the channel they asked through); it cannot be ended early",
  access: 'record:exclusions',
  body: z.object({
    phone: KenyanPhone,
    period: Period,
    channel: z.enum(EXCLUSION_CHANNEL_VALUES, { message: exclusionTexts.channel }).default('staff'),
    note: Note.optional(),
  }),
  response: Notice.extend({ exclusion: SelfExclusion }),
});

export const markUnder18 = endpoint({
  method: 'POST',
  path: '/api/exclusions/under-18',
  tag: 'exclusions',
  summary: 'Staff mark a person as under 18 (audited): no sale can be made to them; a payment from them is kept for a refund',
  access: 'record:exclusions',
  body: z.object({ phone: KenyanPhone, note: Note.min(1, 'Say how the age is known') }),
  response: Notice,
});

export const portalExclusion = endpoint({
  method: 'POST',
  path: '/api/portal/exclusion',
  tag: 'portal',
  summary: 'The signed-in punter excludes themselves for 30, 90, 180 days or for good; it cannot be ended early',
  access: 'portal',
  body: z.object({ period: Period }),
  response: Notice.extend({ ends_at: z.string().nullable() }),
});

export const SaferGamblingRow = z.object({
  /** YYYY-MM, Africa/Nairobi. */
  month: z.string(),
  exclusions_started: z.number(),
  exclusions_ended: z.number(),
  sales_refused_excluded: z.number(),
  sales_refused_under_18: z.number(),
});

export const saferGamblingReport = endpoint({
  method: 'GET',
  path: '/api/reports/safer-gambling',
  tag: 'reports',
  summary: 'Per month: self-exclusions started and ended, sales refused to excluded and to under-18 people',
  access: 'view:reports',
  query: ReportRangeQuery,
  response: z.object({ from: z.string(), to: z.string(), rows: z.array(SaferGamblingRow), total: SaferGamblingRow.omit({ month: true }) }),
});

export const exportSaferGamblingReport = csvExport({
  path: '/api/reports/safer-gambling/export',
  tag: 'reports',
  summary: 'CSV of the safer-gambling report',
  access: 'view:reports',
  query: ReportRangeQuery,
});
