import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { ReportRangeQuery } from './reports.ts';

/**
 * Promotions that keep the advertising rules (decision 061): a banned claim found in a promotional
 * text (the words as the text holds them, and the rule they break).
 */
export const BannedClaimFound = z.object({ word: z.string(), rule: z.string() });
export type BannedClaimFound = z.infer<typeof BannedClaimFound>;

export const PROMOTION_REFUSAL_SOURCE_LABELS = { broadcast: 'Broadcast', template: 'SMS template' } as const;
export type PromotionRefusalSource = keyof typeof PROMOTION_REFUSAL_SOURCE_LABELS;

/** A promotional text refused for a banned claim: a broadcast sent, or a template saved. */
export const PromotionRefusal = z.object({
  id: z.number(),
  created_on: z.string(),
  source: z.enum(Object.keys(PROMOTION_REFUSAL_SOURCE_LABELS) as [PromotionRefusalSource, ...PromotionRefusalSource[]]),
  /** A broadcast's segment, or a template's setting key. */
  target: z.string(),
  language: z.enum(['en', 'sw']),
  message: z.string(),
  blocked: z.array(BannedClaimFound),
  created_by: z.string().nullable(),
});
export type PromotionRefusal = z.infer<typeof PromotionRefusal>;

export const promotionsBlockedReport = endpoint({
  method: 'GET',
  path: '/api/reports/promotions-blocked',
  tag: 'reports',
  summary: 'Promotional texts refused for a banned claim over a range (broadcasts sent, templates saved), with the words and rules, newest first',
  access: 'view:reports',
  query: ReportRangeQuery,
  response: z.object({
    from: z.string(),
    to: z.string(),
    rows: z.array(PromotionRefusal),
    /** How many refusals broke each rule (a refusal breaking two rules counts under both). */
    by_rule: z.array(z.object({ rule: z.string(), refusals: z.number() })),
    total: z.number(),
  }),
});

export const exportPromotionsBlockedReport = csvExport({
  path: '/api/reports/promotions-blocked/export',
  tag: 'reports',
  summary: 'CSV of the promotional texts refused for a banned claim',
  access: 'view:reports',
  query: ReportRangeQuery,
});

export const advertRuleTexts = {
  /** The 422 on `message` (a broadcast) or `value` (a template) naming the claims found. */
  refused: (found: readonly BannedClaimFound[]) =>
    `Not sent: the text makes a claim gambling promotion may not make: ${found.map((f) => `"${f.word}" (${f.rule})`).join('; ')}. Reword it.`,
  templateRefused: (found: readonly BannedClaimFound[]) =>
    `Not saved: the text makes a claim gambling promotion may not make: ${found.map((f) => `"${f.word}" (${f.rule})`).join('; ')}. Reword it.`,
} as const;
