/**
 * A pause of a weekly or monthly tips subscription (decision 090). The subscriber asks on the
 * portal (My account's form or `POST /api/portal/pause`), on USSD (8 Pause) or by SMS (PAUSE <days>); once per subscription, for 1 to the
 * `subscription_pause_max_days` setting days, from now. In one transaction its end moves by the days
 * paused (the renewals stacked after it with it), the due day of its standing order moves too, the
 * pause is recorded and audited, and an SMS confirms it. No tips of its category and medium go to
 * the subscriber while it runs (`pausedNowSql`). Refused for a self-excluded person and an erased phone.
 */
import { type PauseChannel, type SubscriptionPause } from '@betdesk/contract';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { isExcludedNow } from '../../db/sale-blocks.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { customerDate } from '../../customer-texts/format.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { audit } from '../audit/service.ts';
import { moveDueDayForPause } from '../auto-renew/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerText, isErasedPhone, languageOf, queueSms } from '../sms/service.ts';
import { lockSubscriptionForChange, moveSubscriptionEndForPause } from '../subscriptions/service.ts';
import * as q from './queries.ts';

/** A weekly or monthly package: a week or more (a daily one is not paused, decision 090). */
export const PAUSABLE_MIN_DAYS = 7;
const DAY_MS = 86_400_000;

export interface PauseRequest {
  phone: string;
  /** The subscription to pause; null: the subscriber's running pausable one that ends soonest (SMS). */
  subscriptionId: number | null;
  days: number;
  via: PauseChannel;
  requestId: string | null;
}

function wirePause(p: q.PauseRecord): SubscriptionPause {
  return {
    id: p.id,
    subscription_id: p.subscriptionId,
    days: p.days,
    starts_at: p.startsAt.toISOString(),
    ends_at: p.endsAt.toISOString(),
    expires_at: p.expiresAfter.toISOString(),
    standing_order_next_date: p.standingOrderNextAfter,
  };
}

/** The most days a pause may last now (0: pausing is off). */
export const pauseMaxDays = (db: Queryable) => getSetting(db, 'subscription_pause_max_days');

/**
 * Pauses a subscription of the phone's subscriber. Refusals are 409s (a wrong number of days a 422
 * on `days`) in the phone's language, so the SMS answer can say them as they are.
 */
export async function pauseSubscription(deps: AppDeps, r: PauseRequest, now = new Date()): Promise<{ info: string; pause: SubscriptionPause }> {
  const language = await languageOf(deps.db, r.phone);
  const refuse = (id: Parameters<typeof fixedText>[0], values = {}) => conflict(fixedText(id, language, values), 'pause_refused');
  // An erased phone has no subscription to speak of; a self-excluded person gets no lever at all.
  if (await isErasedPhone(deps.db, r.phone)) throw notFound(fixedText('pause.refused.not_found', language));
  if (await isExcludedNow(deps.db, r.phone)) throw refuse('pause.refused.excluded');
  const max = await pauseMaxDays(deps.db);
  if (max <= 0) throw refuse('pause.refused.off');
  if (!Number.isInteger(r.days) || r.days < 1 || r.days > max) throw fieldError('days', fixedText('pause.refused.days', language, { max }));
  const subscriberId = await q.subscriberIdOfPhone(deps.db, r.phone);
  if (subscriberId === null) throw notFound(fixedText('pause.refused.not_found', language));
  const subscriptionId = r.subscriptionId ?? (await chosenSubscription(deps.db, r.phone, language));

  const done = await deps.db.transaction(async (tx) => {
    const sub = await lockSubscriptionForChange(tx, subscriptionId);
    const running = sub && sub.subscriberId === subscriberId && sub.reversedAt === null && sub.startsAt <= now && sub.expiresAt > now;
    if (!sub || !running) throw notFound(fixedText('pause.refused.not_found', language));
    if (sub.durationDays < PAUSABLE_MIN_DAYS) throw refuse('pause.refused.daily');
    const endsAt = new Date(now.getTime() + r.days * DAY_MS);
    const expiresAfter = await moveSubscriptionEndForPause(tx, sub, r.days);
    const order = await moveDueDayForPause(tx, { subscriberId, packageId: sub.packageId, days: r.days });
    const pause = await q.insertPause(tx, {
      subscriptionId: sub.id,
      subscriberId,
      betCategoryId: sub.betCategoryId,
      medium: sub.medium,
      days: r.days,
      startsAt: now,
      endsAt,
      expiresBefore: sub.expiresAt,
      expiresAfter,
      standingOrderId: order?.orderId ?? null,
      standingOrderNextBefore: order?.before ?? null,
      standingOrderNextAfter: order?.after ?? null,
      via: r.via,
    });
    // Once per period: a second pause of the same subscription undoes nothing and is refused.
    if (!pause) throw refuse('pause.refused.once');
    await audit(tx, 'subscription.pause', pause.id, { actorUserId: null, requestId: r.requestId }, {
      before: { subscription_id: sub.id, expires_at: sub.expiresAt.toISOString(), standing_order_next_date: order?.before ?? null },
      after: {
        days: r.days,
        paused_until: endsAt.toISOString(),
        expires_at: expiresAfter.toISOString(),
        standing_order_next_date: order?.after ?? null,
        via: r.via,
        by: "the phone's owner",
      },
    });
    const values = {
      package: await q.packageNameOf(tx, sub.packageId, sub.betCategoryId),
      days: r.days,
      date: customerDate(endsAt, language),
      end: customerDate(expiresAfter, language),
    };
    await queueSms(tx, {
      intent: 'subscription.paused',
      dedupeKey: `subscription-paused:${pause.id}`,
      to: r.phone,
      body: order
        ? await customerText(tx, 'sms.pause_confirmed_auto_renew', language, { ...values, due: customerDate(order.after, language) })
        : await customerText(tx, 'sms.pause_confirmed', language, values),
      createdBy: null,
      subscriberId,
      smsClass: 'transactional',
    });
    return { pause, values };
  });
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return { info: fixedText('pause.done', language, done.values), pause: wirePause(done.pause) };
}

/** A running subscription as a pause sees it: how long its package is, when it ends, and its pause if it had one. */
export interface RunningForPause {
  subscriptionId: number;
  durationDays: number;
  category: string;
  code: string;
  medium: 'sms' | 'web';
  expiresAt: Date;
  /** Its pause (once per subscription), running or over; null: not paused. */
  pause: { startsAt: Date; endsAt: Date } | null;
}

export type PauseRefusalId = 'pause.refused.off' | 'pause.refused.not_found' | 'pause.refused.daily' | 'pause.refused.once' | 'pause.refused.excluded';

/**
 * What the phone may pause now (portal, USSD): its running subscriptions with their pauses and the
 * most days, or the catalogue text saying why it may pause none, in the order `pauseSubscription`
 * refuses (an erased phone "not found", a self-excluded person, pausing off).
 */
export async function pauseStanding(db: Queryable, phone: string): Promise<{ maxDays: number; running: RunningForPause[] } | { refusal: PauseRefusalId }> {
  if (await isErasedPhone(db, phone)) return { refusal: 'pause.refused.not_found' };
  if (await isExcludedNow(db, phone)) return { refusal: 'pause.refused.excluded' };
  const maxDays = await pauseMaxDays(db);
  if (maxDays <= 0) return { refusal: 'pause.refused.off' };
  const subscriberId = await q.subscriberIdOfPhone(db, phone);
  if (subscriberId === null) return { refusal: 'pause.refused.not_found' };
  const running = (await q.runningSubscriptions(db, subscriberId)).flatMap((s) =>
    s.code === null || s.category === null || s.medium === null
      ? []
      : [
          {
            subscriptionId: Number(s.id),
            durationDays: Number(s.duration_days),
            category: s.category,
            code: s.code,
            medium: s.medium,
            expiresAt: new Date(s.expires_at),
            pause: s.paused_from && s.paused_until ? { startsAt: new Date(s.paused_from), endsAt: new Date(s.paused_until) } : null,
          },
        ],
  );
  return { maxDays, running };
}

/** A subscription that may be paused now: a week or more, not paused yet. */
export const pausable = (s: { durationDays: number; pause: unknown }) => s.pause === null && s.durationDays >= PAUSABLE_MIN_DAYS;

/**
 * The running subscriptions that may be paused now, the soonest to end first, or why none may be:
 * each weekly or monthly one paused once already, only daily ones running, or none running.
 */
export function openForPause(running: RunningForPause[]): { open: RunningForPause[] } | { refusal: PauseRefusalId } {
  const open = running.filter(pausable);
  if (open.length > 0) return { open };
  if (running.some((s) => s.durationDays >= PAUSABLE_MIN_DAYS)) return { refusal: 'pause.refused.once' };
  if (running.length > 0) return { refusal: 'pause.refused.daily' };
  return { refusal: 'pause.refused.not_found' };
}

/** The running, not yet paused, weekly or monthly subscription that ends soonest. */
async function chosenSubscription(db: Queryable, phone: string, language: Language): Promise<number> {
  const standing = await pauseStanding(db, phone);
  const chosen = 'refusal' in standing ? standing : openForPause(standing.running);
  if ('open' in chosen) return chosen.open[0]!.subscriptionId;
  const text = fixedText(chosen.refusal, language);
  throw chosen.refusal === 'pause.refused.not_found' ? notFound(text) : conflict(text, 'pause_refused');
}

/** SQL true when the subscriber (an SQL expression) has a pause of this category and medium running now. */
export function pausedNowSql(subscriberId: SQL, betCategoryId: number | SQL, medium: 'sms' | 'web'): SQL {
  return q.pausedNow(subscriberId, betCategoryId, medium);
}

/** A pause as the record of it: its subscription, start and end (read by the lever report). */
export function pauseOfSubscription(db: Queryable, subscriptionId: number) {
  return q.pauseOfSubscription(db, subscriptionId);
}

/** The sale after a pause: the subscriber's first subscription of the same category and medium made at or after it ended. */
export function saleAfterPause(db: Queryable, pauseId: number) {
  return q.saleAfterPause(db, pauseId);
}
