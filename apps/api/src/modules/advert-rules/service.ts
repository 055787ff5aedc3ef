import { addDays, advertRuleTexts, defaultRange, nairobiDayStart, type PromotionRefusal, type ReportRangeQuery } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { csvDateTime, type CsvTable } from '../../http/csv.ts';
import { fieldError } from '../../http/errors.ts';
import { customerTexts, type Language } from '../../customer-texts/catalogue.ts';
import { bannedClaimsIn, type ClaimFound } from './banned-claims.ts';
import * as q from './queries.ts';

export { BANNED_CLAIMS, CLAIM_RULES, bannedClaimsIn, type BannedClaim, type ClaimFound } from './banned-claims.ts';

/**
 * Promotions that keep the advertising rules (decision 061). This module reads no setting: the
 * caller reads `rg_promotion_rules` (settings) and passes it as `rulesOn`, so that the settings
 * module itself can check a template as it is saved.
 */

/** The responsible-gambling lines in a language (the catalogue's `sms.responsible_gambling`). */
export const responsibleGamblingLines = (language: Language): string => customerTexts['sms.responsible_gambling'][language];

/** A promotional text with its responsible-gambling lines at the end (once), or as it is with the rules off. */
export function withResponsibleGamblingLines(body: string, language: Language, rulesOn: boolean): string {
  if (!rulesOn) return body;
  const lines = responsibleGamblingLines(language);
  return body.includes(lines) ? body : `${body.trimEnd()} ${lines}`;
}

export interface AdvertCheck {
  /** The banned claims the text holds (none with the rules off). */
  blocked: ClaimFound[];
  /** The lines added at the end ('' with the rules off). */
  appended: string;
  /** The text with the lines. */
  body: string;
}

/** What a promotional text would be refused for, and how it leaves. */
export function checkAdvert(text: string, language: Language, rulesOn: boolean): AdvertCheck {
  if (!rulesOn) return { blocked: [], appended: '', body: text };
  return { blocked: bannedClaimsIn(text), appended: responsibleGamblingLines(language), body: withResponsibleGamblingLines(text, language, true) };
}

export interface Refusal {
  source: 'broadcast' | 'template';
  target: string;
  language: Language;
  body: string;
  claims: ClaimFound[];
  createdBy: number | null;
}

/**
 * Keeps a refusal (outside the refused request's transaction: `db` is the pool) and throws the 422
 * on `field` naming the claims. A refusal that cannot be kept still refuses.
 */
export async function refuse(db: Queryable, refusal: Refusal, field: 'message' | 'value'): Promise<never> {
  await q
    .insertRefusal(db, {
      source: refusal.source,
      target: refusal.target,
      language: refusal.language,
      body: refusal.body,
      claims: refusal.claims,
      createdBy: refusal.createdBy,
    })
    .catch(() => undefined);
  const text = refusal.source === 'template' ? advertRuleTexts.templateRefused(refusal.claims) : advertRuleTexts.refused(refusal.claims);
  throw fieldError(field, text);
}

// ---- Reports → Promotions blocked ------------------------------------------------------------------

const claimsOf = (r: q.RefusalRow): ClaimFound[] => (typeof r.claims === 'string' ? (JSON.parse(r.claims) as ClaimFound[]) : r.claims);

/** The promotional texts refused for a banned claim over a range of Nairobi days, newest first, with counts per rule. */
export async function promotionsBlockedReport(db: Queryable, query: ReportRangeQuery) {
  const range = defaultRange({ from: query.from, to: query.to, group: 'month' });
  const found = await q.refusalsBetween(db, nairobiDayStart(range.from), nairobiDayStart(addDays(range.to, 1)));
  const rows = found.map(
    (r): PromotionRefusal => ({
      id: Number(r.id),
      created_on: new Date(r.created_at).toISOString(),
      source: r.source,
      target: r.target,
      language: r.language,
      message: r.body,
      blocked: claimsOf(r),
      created_by: r.created_by,
    }),
  );
  const perRule = new Map<string, number>();
  for (const r of rows) for (const rule of new Set(r.blocked.map((b) => b.rule))) perRule.set(rule, (perRule.get(rule) ?? 0) + 1);
  return {
    from: range.from,
    to: range.to,
    rows,
    by_rule: [...perRule.entries()].sort((a, b) => b[1] - a[1]).map(([rule, refusals]) => ({ rule, refusals })),
    total: rows.length,
  };
}

export async function promotionsBlockedCsv(db: Queryable, query: ReportRangeQuery): Promise<CsvTable<PromotionRefusal>> {
  const report = await promotionsBlockedReport(db, query);
  return {
    filename: `report-promotions-blocked-${report.from}-to-${report.to}`,
    columns: [
      { header: 'Refused on', value: (r) => csvDateTime(r.created_on) },
      { header: 'What', value: (r) => (r.source === 'broadcast' ? 'Broadcast' : 'SMS template') },
      { header: 'Segment or template', value: (r) => r.target },
      { header: 'Language', value: (r) => r.language },
      { header: 'Words', value: (r) => r.blocked.map((b) => b.word).join('; ') },
      { header: 'Rules', value: (r) => [...new Set(r.blocked.map((b) => b.rule))].join('; ') },
      { header: 'Message', value: (r) => r.message },
      { header: 'By', value: (r) => r.created_by },
    ],
    // A report's rows are bounded by its range cap: one batch.
    rows: [report.rows],
  };
}
