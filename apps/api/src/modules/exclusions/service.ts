import {
  defaultRange,
  exclusionTexts,
  periodsOf,
  refusalTexts,
  type ExclusionPeriodValue,
  type PageQuery,
  type ReportRangeQuery,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { saleBlockOf } from '../../db/sale-blocks.ts';
import type { ExclusionChannel, SaleBlock } from '../../db/schema/index.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor, PortalSession } from '../../http/actor.ts';
import type { CsvTable } from '../../http/csv.ts';
import { conflict, fieldError } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { customerDate } from '../../customer-texts/format.ts';
import { audit, byStaff, type AuditBy } from '../audit/service.ts';
import { stopOrdersOfExcludedPhone } from '../auto-renew/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerText, customerTextFor, isErasedPhone, languageOf, queueSms } from '../sms/service.ts';
import * as q from './queries.ts';

/**
 * Self-exclusion and the under-18 mark (decision 059). A person excludes themselves for 30, 90, 180
 * days or for good, by USSD, portal, SMS keyword or through staff; nobody ends it early (no route
 * does, and migration 0054's trigger refuses a change of its dates or its deletion). While it runs
 * (and the setting rg_self_exclusion is on) the shared check in src/db/sale-blocks.ts keeps them
 * from every promotion, reminder and sale; the exclusion's start stops their standing orders. At its
 * end they are told once, and nothing restarts by itself.
 */

const PERIOD_DAYS: Record<ExclusionPeriodValue, number | null> = { '30': 30, '90': 90, '180': 180, forever: null };

export const EXCLUSION_SMS_INTENT = 'exclusion.started';
export const EXCLUSION_ENDED_INTENT = 'exclusion.ended';
export const SALE_REFUSED_INTENT = 'sale.refused';

/** The words of an exclusion's SMS and screens: the period, and its end in the reader's language. */
const endValues = (period: ExclusionPeriodValue, endsAt: string | null, language: Language) => ({
  period: period === 'forever' ? 'forever' : 'days',
  end: endsAt ? customerDate(endsAt, language) : '',
});

/**
 * Records a self-exclusion from now, in `tx`: audited with the channel, the person's standing
 * orders stopped (with the safeguard on), and the person told by SMS. An erased person's phone takes
 * none (there is nobody to exclude; their payments are kept unclaimed already).
 */
export async function exclude(
  tx: Queryable,
  e: { phone: string; period: ExclusionPeriodValue; channel: ExclusionChannel; by: AuditBy; note?: string | null | undefined },
) {
  if (await isErasedPhone(tx, e.phone)) throw fieldError('phone', refusalTexts.exclusionErased);
  const running = await q.runningExclusion(tx, sha256Hex(e.phone));
  const exclusion = await q.insertExclusion(tx, {
    phone: e.phone,
    phoneHash: sha256Hex(e.phone),
    period: e.period,
    channel: e.channel,
    days: PERIOD_DAYS[e.period],
    recordedBy: e.by.actorUserId,
    note: e.note ?? null,
  });
  await audit(tx, 'exclusion.record', exclusion.id, e.by, {
    after: { period: e.period, channel: e.channel, starts_at: exclusion.starts_at, ends_at: exclusion.ends_at },
  });
  const ordersStopped = (await getSetting(tx, 'rg_self_exclusion')) ? await stopOrdersOfExcludedPhone(tx, e.phone, e.by) : 0;
  const language = await languageOf(tx, e.phone);
  await queueSms(tx, {
    intent: EXCLUSION_SMS_INTENT,
    dedupeKey: `${EXCLUSION_SMS_INTENT}:${exclusion.id}`,
    to: e.phone,
    body: await customerText(tx, 'sms.exclusion_started', language, endValues(e.period, exclusion.ends_at, language)),
    createdBy: e.by.actorUserId,
  });
  return { exclusion, ordersStopped, alreadyRunning: running !== null };
}

/** Staff record a person's own request (by phone, in person), with the channel it came through. */
export async function recordByStaff(
  deps: AppDeps,
  actor: Actor,
  body: { phone: string; period: ExclusionPeriodValue; channel: ExclusionChannel; note?: string | undefined },
  requestId: string,
) {
  const done = await deps.db.transaction((tx) => exclude(tx, { ...body, by: byStaff(actor, requestId) }));
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return { info: done.alreadyRunning ? exclusionTexts.extended : exclusionTexts.recorded, exclusion: done.exclusion };
}

/** The signed-in punter excludes themselves on the portal. */
export async function excludeFromPortal(deps: AppDeps, session: PortalSession, period: ExclusionPeriodValue, requestId: string) {
  const done = await deps.db.transaction((tx) => exclude(tx, { phone: session.phone, period, channel: 'portal', by: { actorUserId: null, requestId } }));
  await deps.jobs.nudge(QUEUES.smsDispatch);
  const language = await languageOf(deps.db, session.phone);
  return {
    info: await customerText(deps.db, 'portal.exclusion_done', language, endValues(period, done.exclusion.ends_at, language)),
    ends_at: done.exclusion.ends_at,
  };
}

/** The USSD menu's entry: the END screen's text. The caller nudges the SMS queue. */
export async function excludeByUssd(deps: AppDeps, phone: string, period: ExclusionPeriodValue, requestId: string, language: Language): Promise<string> {
  const done = await deps.db.transaction((tx) => exclude(tx, { phone, period, channel: 'ussd', by: { actorUserId: null, requestId } }));
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return customerText(deps.db, 'ussd.exclusion_done', language, endValues(period, done.exclusion.ends_at, language));
}

/** The SMS keywords: EXCLUDE (English) and JIEPUSHE (Kiswahili). */
export const EXCLUSION_KEYWORDS = ['EXCLUDE', 'JIEPUSHE'] as const;

/** The second word of the keyword: the days, or for good in either language. */
const PERIOD_WORDS: Record<string, ExclusionPeriodValue> = {
  '30': '30',
  '90': '90',
  '180': '180',
  FOREVER: 'forever',
  MILELE: 'forever',
  DAIMA: 'forever',
};

/** The period a keyword text names (`EXCLUDE 90`, `JIEPUSHE MILELE`), or null when it names none. */
export function periodOfKeyword(secondWord: string | undefined): ExclusionPeriodValue | null {
  return secondWord !== undefined && Object.hasOwn(PERIOD_WORDS, secondWord) ? PERIOD_WORDS[secondWord]! : null;
}

/**
 * A texted EXCLUDE/JIEPUSHE in `tx`: with a period the exclusion is recorded (its own SMS tells the
 * person), and the keyword's reply is null; without one, the reply says how.
 */
export async function excludeBySms(tx: Queryable, phone: string, period: ExclusionPeriodValue | null): Promise<{ reply: string | null; action: string }> {
  if (period === null) return { reply: await customerTextFor(tx, phone, 'sms.exclusion_how'), action: 'Self-exclusion asked without a period; how sent' };
  await exclude(tx, { phone, period, channel: 'sms', by: { actorUserId: null } });
  return { reply: null, action: `Self-excluded (${period === 'forever' ? 'for good' : `${period} days`}); confirmation sent` };
}

/** Staff mark a person as under 18 (audited): no sale can be made to them (rg_under_18_block). */
export async function markUnder18(deps: AppDeps, actor: Actor, body: { phone: string; note: string }, requestId: string) {
  await deps.db.transaction(async (tx) => {
    if (await isErasedPhone(tx, body.phone)) throw fieldError('phone', refusalTexts.exclusionErased);
    const marked = await q.insertUnder18Mark(tx, { phone: body.phone, phoneHash: sha256Hex(body.phone), note: body.note, markedBy: actor.userId });
    if (!marked) throw conflict(exclusionTexts.under18Already);
    await audit(tx, 'under-18.mark', sha256Hex(body.phone), byStaff(actor, requestId), { after: { note: body.note } });
  });
  return { info: exclusionTexts.under18Marked };
}

/**
 * The shared sale check for a purchase asked for (an STK push of a package or plan, a standing
 * order): refused (409) when the phone's person is self-excluded or marked under 18, and counted for
 * the safer-gambling report. Money that arrives anyway is kept (`keepRefusedPayment`).
 */
export async function refuseBlockedSale(db: Queryable, phone: string, channel: string): Promise<void> {
  const block = await saleRefused(db, phone, channel);
  if (block) throw conflict(block === 'under_18' ? refusalTexts.saleBlockedUnder18 : refusalTexts.saleBlockedExcluded, `sale-blocked-${block}`);
}

/** `refuseBlockedSale` for a screen that answers in the customer's words: why it is refused (counted), or null. */
export async function saleRefused(db: Queryable, phone: string, channel: string): Promise<SaleBlock | null> {
  const block = await saleBlockOf(db, phone);
  if (block) await q.insertRefusedSale(db, { paymentId: null, phoneHash: sha256Hex(phone), reason: block, channel });
  return block;
}

/** The warning a payment kept from a blocked payer carries on the payments screen (an admin refunds it). */
export function refusedPaymentWarning(block: SaleBlock): string {
  return block === 'under_18'
    ? 'Kept, not sold: the payer is marked as under 18. Refund it (Request refund)'
    : 'Kept, not sold: the payer has excluded themselves from gambling. Refund it (Request refund)';
}

/**
 * Money from a blocked payer, stored unclaimed in `tx`: counted for the report, and the person told
 * once per exclusion (once for an under-18 mark) that it is kept and will be refunded.
 */
export async function keepRefusedPayment(
  tx: Queryable,
  p: { paymentId: number; phone: string | null; phoneHash: string; block: SaleBlock; amountCents: number; receipt: string | null },
): Promise<boolean> {
  await q.insertRefusedSale(tx, { paymentId: p.paymentId, phoneHash: p.phoneHash, reason: p.block, channel: 'payment' });
  if (!p.phone) return false;
  const running = p.block === 'self_exclusion' ? await q.runningExclusion(tx, p.phoneHash) : null;
  const once = p.block === 'self_exclusion' ? `x${running?.id ?? 0}` : `u${p.phoneHash}`;
  const id = await queueSms(tx, {
    intent: SALE_REFUSED_INTENT,
    dedupeKey: `${SALE_REFUSED_INTENT}:${once}`,
    to: p.phone,
    body: await customerTextFor(tx, p.phone, 'sms.sale_refused', {
      amount: (p.amountCents / 100).toFixed(0),
      receipt: p.receipt ?? '',
      reason: p.block,
    }),
    createdBy: null,
  });
  return id !== null;
}

/** The job: each exclusion that ended is told once; nothing else changes (consent and renewal stay off). */
export async function tellEndedExclusions(deps: AppDeps): Promise<number> {
  const told = await deps.db.transaction(async (tx) => {
    let n = 0;
    for (const ended of await q.endedUntold(tx, 500)) {
      await q.markEndTold(tx, ended.id);
      // A person who excluded themselves again (or for good) is not told that it ended.
      if (!ended.phone || (await q.runningExclusion(tx, ended.phoneHash))) continue;
      const id = await queueSms(tx, {
        intent: EXCLUSION_ENDED_INTENT,
        dedupeKey: `${EXCLUSION_ENDED_INTENT}:${ended.id}`,
        to: ended.phone,
        body: await customerTextFor(tx, ended.phone, 'sms.exclusion_ended'),
        createdBy: null,
      });
      if (id !== null) n += 1;
    }
    return n;
  });
  if (told > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  return told;
}

/** The register: a page, newest first, and its counts. */
export async function register(db: Queryable, query: PageQuery & { search: string }) {
  const search = query.search.replace(/\D/g, '').replace(/^0/, '');
  const { found, total } = await q.exclusionPage(db, { search, limit: query.perPage, offset: (query.page - 1) * query.perPage });
  return { total_records: total, exclusions: found, counts: await q.exclusionCounts(db) };
}

/** A person's exclusions and under-18 mark, for their data export. */
export async function exclusionsForExport(db: Queryable, phone: string) {
  return q.exclusionsOfHash(db, sha256Hex(phone));
}

/** Erasure: the phone leaves the exclusion records, its hash stays, so the exclusion still holds. */
export async function forgetExcludedPhone(tx: Queryable, phone: string): Promise<number> {
  return q.forgetPhone(tx, sha256Hex(phone));
}

/** The safer-gambling report: per Nairobi month of the range, exclusions started and ended, sales refused. */
export async function saferGamblingReport(db: Queryable, query: ReportRangeQuery) {
  const { from, to } = defaultRange({ from: query.from, to: query.to, group: 'month' });
  const found = new Map((await q.saferGamblingMonths(db, from, to)).map((r) => [r.month, r]));
  const rows = periodsOf(from, to, 'month').map((p) => {
    const r = found.get(p.period.slice(0, 7));
    return {
      month: p.period.slice(0, 7),
      exclusions_started: r?.started ?? 0,
      exclusions_ended: r?.ended ?? 0,
      sales_refused_excluded: r?.excluded ?? 0,
      sales_refused_under_18: r?.under_18 ?? 0,
    };
  });
  const sum = (k: keyof (typeof rows)[number]) => rows.reduce((n, r) => n + (r[k] as number), 0);
  return {
    from,
    to,
    rows,
    total: {
      exclusions_started: sum('exclusions_started'),
      exclusions_ended: sum('exclusions_ended'),
      sales_refused_excluded: sum('sales_refused_excluded'),
      sales_refused_under_18: sum('sales_refused_under_18'),
    },
  };
}

export async function saferGamblingCsv(db: Queryable, query: ReportRangeQuery): Promise<CsvTable<Awaited<ReturnType<typeof saferGamblingReport>>['rows'][number]>> {
  const report = await saferGamblingReport(db, query);
  return {
    filename: `report-safer-gambling-${report.from}-to-${report.to}`,
    columns: [
      { header: 'Month', value: (r) => r.month },
      { header: 'Exclusions started', value: (r) => r.exclusions_started },
      { header: 'Exclusions ended', value: (r) => r.exclusions_ended },
      { header: 'Sales refused (self-excluded)', value: (r) => r.sales_refused_excluded },
      { header: 'Sales refused (under 18)', value: (r) => r.sales_refused_under_18 },
    ],
    rows: [report.rows],
  };
}
