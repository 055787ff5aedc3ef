import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { centsToKes, type SmsTipForEditing, type SmsTipWithDelivery, type SmsTipsEstimate, type SmsTipsForm, type TipsMediumKey } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { jsonValue, type TypedColumn } from '../../db/columns.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { invalid, type FieldErrors } from '../../http/errors.ts';
import { smsParts } from '@betdesk/contract';
import { getSetting } from '../settings/service.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { queueSms, queueSmsFanout, ridingSms, type RidingSms, type SmsToQueue } from '../sms/service.ts';
import * as q from './queries.ts';

export async function smsTipsForEditing(db: Queryable): Promise<SmsTipForEditing[]> {
  const tips = await q.currentTips(db);
  const found: SmsTipForEditing[] = [];
  for (const { versionId: _versionId, ...tip } of tips) {
    found.push({ ...tip, recipients: await q.countSmsRecipients(db, tip.bet_category_id) });
  }
  return found;
}

export function smsTipsWithDelivery(db: Queryable): Promise<SmsTipWithDelivery[]> {
  return q.currentTipsWithDelivery(db);
}

/** Unknown categories in a tips form: 422 naming the field (posts.N.bet_category_id). */
function checkCategories(form: z.output<typeof SmsTipsForm>, current: Map<number, unknown>): void {
  const errors: FieldErrors = {};
  form.posts.forEach((tip, index) => {
    if (!current.has(tip.bet_category_id)) errors[`posts.${index}.bet_category_id`] = ['This bet category does not exist'];
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

/**
 * What saving the form would send, computed as the save does: only a changed, non-empty text goes
 * out, to the category's running SMS subscribers less those who opted out of it. Nothing is saved.
 */
export async function estimateSmsTips(db: Queryable, form: z.output<typeof SmsTipsForm>): Promise<SmsTipsEstimate> {
  const current = new Map((await q.currentTips(db)).map((tip) => [tip.bet_category_id, tip]));
  checkCategories(form, current);
  const perPartCents = await getSetting(db, 'sms_cost_per_part_cents');
  const tips: SmsTipsEstimate['tips'] = [];
  for (const tip of form.posts) {
    const before = current.get(tip.bet_category_id)!;
    if (before.content === tip.content || tip.content === '') continue;
    const recipients = await q.countSmsRecipients(db, tip.bet_category_id);
    const parts = smsParts(tip.content);
    tips.push({
      bet_category_id: tip.bet_category_id,
      bet_category: before.bet_category,
      code: before.code,
      recipients,
      parts,
      estimated_parts: parts * recipients,
      estimated_cost: centsToKes(parts * recipients * perPartCents),
    });
  }
  const estimatedParts = tips.reduce((sum, tip) => sum + tip.estimated_parts, 0);
  return {
    tips,
    recipients: tips.reduce((sum, tip) => sum + tip.recipients, 0),
    estimated_parts: estimatedParts,
    estimated_cost: centsToKes(estimatedParts * perPartCents),
  };
}

/**
 * Saves the SMS tips. A category whose text changed gets a new version, which is queued to every
 * subscriber with a running SMS subscription of that category, once per (version, phone). The same
 * text saved again is no new version, so nobody receives a tip twice.
 */
export async function saveSmsTips(
  deps: AppDeps,
  actor: Actor,
  form: z.output<typeof SmsTipsForm>,
  requestId: string,
): Promise<{ message: string; queued: number }> {
  const { changed, queued } = await deps.db.transaction(async (tx) => {
    const current = new Map((await q.currentTips(tx)).map((tip) => [tip.bet_category_id, tip]));
    checkCategories(form, current);

    let changedCount = 0;
    let queuedCount = 0;
    for (const tip of form.posts) {
      const before = current.get(tip.bet_category_id)!;
      if (before.content === tip.content) continue;
      changedCount += 1;
      const { versionId, queued: tipQueued } = await publishSmsTip(tx, {
        betCategoryId: tip.bet_category_id,
        content: tip.content,
        createdBy: actor.userId,
      });
      queuedCount += tipQueued;
      await audit(tx, 'sms-tip.update', tip.bet_category_id, byStaff(actor, requestId), {
        before: { content: before.content },
        after: { content: tip.content, version_id: versionId },
      });
    }
    return { changed: changedCount, queued: queuedCount };
  });
  if (queued > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  return {
    message:
      changed === 0 ? 'No SMS tip changed' : `${changed} SMS tip${changed === 1 ? '' : 's'} saved, ${queued} SMS queued`,
    queued,
  };
}

/**
 * Makes `content` the category's current SMS tip (a new version) and queues it, unless empty, to
 * every subscriber with a running SMS subscription of the category. Returns the version and how
 * many messages were queued; nudge the SMS queue after commit.
 */
export async function publishSmsTip(
  tx: Queryable,
  tip: { betCategoryId: number; content: string; createdBy: number | null },
): Promise<{ versionId: number; queued: number }> {
  const versionId = await q.insertVersion(tx, tip);
  if (tip.content === '') return { versionId, queued: 0 };
  const queued = await queueSmsFanout(tx, {
    intent: q.SMS_TIP_INTENT,
    dedupeKeyPrefix: q.smsTipDedupePrefix(versionId),
    body: tip.content,
    recipients: q.activeSmsRecipients(tip.betCategoryId),
    recipientsAre: 'subscribers',
    createdBy: tip.createdBy,
    smsClass: 'service',
    betCategoryId: tip.betCategoryId,
  });
  return { versionId, queued };
}

/**
 * A subscriber whose SMS subscription starts after today's tip was sent receives it now, once
 * (same dedupe key as the fan-out). Call it in the activating transaction; nudge the SMS queue after
 * commit when it returns true.
 */
export async function sendCurrentTipOnActivation(tx: Queryable, activation: TipActivation): Promise<boolean> {
  const sms = await currentTipSms(tx, activation);
  return sms !== null && (await queueSms(tx, sms)) !== null;
}

/**
 * `sendCurrentTipOnActivation`'s message, to be written with a later statement of the sale's
 * transaction (its invoice, after the receipt: `smsInOrderRider`), one round trip fewer. Null when
 * there is no tip to send.
 */
export async function currentTipOnActivationRiding(tx: Queryable, activation: TipActivation): Promise<RidingSms | null> {
  const sms = await currentTipSms(tx, activation);
  return sms === null ? null : ridingSms(sms);
}

/** A package's activation, for today's tip of its category. */
export interface TipActivation {
  subscriberId: number;
  betCategoryId: number;
  medium: TipsMediumKey;
  createdBy?: number | null;
  /** The subscriber's phone when the caller read it in this transaction. */
  phone?: string;
  /** Today's tip of the category when the caller read it in this transaction (`todaysTipColumn`). */
  todaysTip?: TodaysTip | null;
}

/** Today's tip as the SMS an activated SMS package sends, or null when there is none to send. */
async function currentTipSms(tx: Queryable, activation: TipActivation): Promise<(SmsToQueue & { smsClass: 'service' }) | null> {
  if (activation.medium !== 'sms') return null;
  const tip = activation.todaysTip !== undefined ? activation.todaysTip : await q.todaysTip(tx, activation.betCategoryId);
  if (!tip) return null;
  const phone = activation.phone ?? (await q.subscriberPhone(tx, activation.subscriberId));
  if (!phone) return null;
  return {
    intent: q.SMS_TIP_INTENT,
    dedupeKey: `${q.smsTipDedupePrefix(tip.versionId)}:${phone}`,
    to: phone,
    body: tip.content,
    subscriberId: activation.subscriberId,
    createdBy: activation.createdBy ?? null,
    smsClass: 'service',
    betCategoryId: activation.betCategoryId,
  };
}

/** A category's tip saved today: its version and text. */
export type TodaysTip = { versionId: number; content: string };

/**
 * Today's tip of a category read as a column of another read (a payment's read of the packages it
 * may buy: one round trip fewer), the category an SQL expression of that read.
 */
export function todaysTipColumn(betCategoryId: SQL): TypedColumn<TodaysTip | null> {
  return {
    sql: q.todaysTipColumn(betCategoryId),
    read: (stored) => q.todaysTipOf(jsonValue(stored) as { id: number | string; content: string } | null | undefined),
  };
}

export const TODAYS_TIP_AGAIN_INTENT = 'tips.sms-tip-again';

/**
 * A subscriber asks for today's tips again (USSD): today's tip of each category they hold a running
 * SMS subscription of, re-sent once per (Nairobi day, category). Transactional: they asked for it.
 * Answers which categories were queued now, were already re-sent today, or have no tip yet today;
 * nudge the SMS queue after commit when some were queued.
 */
export async function resendTodaysTips(
  tx: Queryable,
  r: { subscriberId: number; phone: string; day: string },
): Promise<{ queued: string[]; alreadySent: string[]; notYet: string[] }> {
  const result = { queued: [] as string[], alreadySent: [] as string[], notYet: [] as string[] };
  for (const category of await q.runningSmsCategories(tx, r.subscriberId)) {
    const tip = await q.todaysTip(tx, category.id);
    if (!tip) {
      result.notYet.push(category.code);
      continue;
    }
    const id = await queueSms(tx, {
      intent: TODAYS_TIP_AGAIN_INTENT,
      dedupeKey: `${TODAYS_TIP_AGAIN_INTENT}:${r.day}:${category.id}:${r.phone}`,
      to: r.phone,
      body: tip.content,
      subscriberId: r.subscriberId,
      createdBy: null,
    });
    (id === null ? result.alreadySent : result.queued).push(category.code);
  }
  return result;
}
