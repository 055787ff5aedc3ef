import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  can,
  centsToKes,
  durationLabel,
  localPhone,
  successTexts,
  TIPS_MEDIA_LABELS,
  type BetCategory,
  type NewSubscriberForm,
  type PageQuery,
  type Subscriber,
  type SubscriberLanguageForm,
  type SubscriberSmsForm,
  refusalTexts,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor, StaffFormAction } from '../../http/actor.ts';
import { AppError, conflict, fieldError, notFound } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { balanceCents } from '../ledger/service.ts';
import { personMessages, queueSms, setLanguageByStaff } from '../sms/service.ts';
import { activateSubscription } from '../subscriptions/service.ts';
import { betCategoryList } from '../tips-posts/service.ts';
import { findPackage, packageDurations } from '../tips-prices/service.ts';
import { sendCurrentTipOnActivation } from '../tips-sms/service.ts';
import { subscriptionsOfSubscriber } from '../tips-subscriptions/service.ts';
import * as q from './queries.ts';

export async function newSubscriberChoices(db: Queryable): Promise<{
  durations: Record<string, string>;
  media: Record<string, string>;
  bet_categories: BetCategory[];
}> {
  const durations = Object.fromEntries((await packageDurations(db)).map((days) => [String(days), durationLabel(days)]));
  return { durations, media: { ...TIPS_MEDIA_LABELS }, bet_categories: await betCategoryList(db) };
}

/**
 * Adds a subscriber by hand: found by phone (or created), then given a manual subscription of the
 * chosen package at its price, recorded with the staff user. An SMS subscriber who joins after
 * today's tip went out receives it now.
 */
export async function storeSubscriber(
  deps: AppDeps,
  actor: Actor,
  form: z.output<typeof NewSubscriberForm>,
  requestId: string,
): Promise<{ message: string; subscriber: { id: number } }> {
  const medium = form.transmission_medium_id;
  const { subscriberId, tipQueued } = await deps.db.transaction(async (tx) => {
    const categories = await betCategoryList(tx);
    if (!categories.some((c) => c.id === form.bet_category_id)) {
      throw fieldError('bet_category_id', refusalTexts.chooseBetCategory);
    }
    const pkg = await findPackage(tx, { betCategoryId: form.bet_category_id, medium, durationDays: form.duration });
    if (!pkg) {
      throw fieldError(
        'duration',
        `There is no ${TIPS_MEDIA_LABELS[medium]} package of ${durationLabel(form.duration)} for this bet category`,
      );
    }
    const subscriber = await q.findOrCreateByPhone(tx, { name: form.name, phone: form.phone, createdBy: actor.userId });
    if (subscriber.created) {
      await audit(tx, 'tips-subscriber.create', subscriber.id, byStaff(actor, requestId), { after: { name: form.name, phone: form.phone } });
    }
    await activateSubscription(tx, {
      what: { subscriberId: subscriber.id, packageId: pkg.id, betCategoryId: form.bet_category_id, medium },
      durationDays: form.duration,
      amountCents: pkg.priceCents,
      source: 'manual',
      createdBy: actor.userId,
      requestId,
    });
    const queued = await sendCurrentTipOnActivation(tx, {
      subscriberId: subscriber.id,
      betCategoryId: form.bet_category_id,
      medium,
      createdBy: actor.userId,
    });
    return { subscriberId: subscriber.id, tipQueued: queued };
  });
  if (tipQueued) await deps.jobs.nudge(QUEUES.smsDispatch);
  return { message: 'Subscriber saved', subscriber: { id: subscriberId } };
}

/** The subscribers tables: active by default; everyone for admins (the All Subscribers screen). */
export async function subscribersPage(
  db: Queryable,
  actor: Actor,
  query: q.SubscriberQuery & { status: 'active' | 'all' },
) {
  if (query.status === 'all' && !can(actor.role, 'view:tips-subscribers-all')) {
    throw new AppError(403, refusalTexts.subscribersAdminsOnly);
  }
  return q.pageSubscribers(db, { ...query, onlyActive: query.status === 'active' });
}

export async function subscriberById(db: Queryable, id: number): Promise<Subscriber> {
  const subscriber = await q.findSubscriber(db, id);
  if (!subscriber) throw notFound(refusalTexts.subscriberNotFound);
  const [balance, subscriptions] = [
    await balanceCents(db, { subscriberId: id }),
    await subscriptionsOfSubscriber(db, id),
  ];
  return { ...subscriber, account_balance: centsToKes(balance), subscriptions };
}

/** A subscriber's messages (their page's SMS tab). */
export async function subscriberMessages(db: Queryable, query: PageQuery & { subscriber_id: number }) {
  const subscriber = await q.findSubscriber(db, query.subscriber_id);
  if (!subscriber) throw notFound(refusalTexts.subscriberNotFound);
  return personMessages(db, { subscriberId: subscriber.id, phone: subscriber.phone }, query);
}

export const sendSmsToSubscriber: StaffFormAction<typeof SubscriberSmsForm> = async (deps, actor, form, requestId) => {
  const subscriber = await q.findSubscriber(deps.db, form.subscriber_id);
  if (!subscriber) throw notFound(refusalTexts.subscriberNotFound);
  // Every press of Send is a new message: the key is ours, never the caller's X-Request-Id.
  const queued = await queueSms(deps.db, {
    intent: 'tips-subscriber.message',
    dedupeKey: `tips-subscriber.message:${subscriber.id}:${requestId}:${randomUUID()}`,
    to: subscriber.phone,
    body: form.message,
    subscriberId: subscriber.id,
    createdBy: actor.userId,
  });
  if (queued === null) throw conflict(refusalTexts.smsNotQueued);
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return { info: successTexts.smsSent };
};

/**
 * Staff set the language a subscriber asked for (by phone, in person): stored with the phone, as
 * the person's own choice would be, and audited.
 */
export const setSubscriberLanguage: StaffFormAction<typeof SubscriberLanguageForm> = async (deps, actor, form, requestId) => {
  const subscriber = await q.findSubscriber(deps.db, form.subscriber_id);
  if (!subscriber) throw notFound(refusalTexts.subscriberNotFound);
  const person = { phone: subscriber.phone, name: subscriber.name, action: 'tips-subscriber.language' as const, entityId: subscriber.id };
  return setLanguageByStaff(deps, actor, person, form.language, requestId);
};

/**
 * A payer who is not yet a subscriber becomes one (pay or text to subscribe): named as M-Pesa names
 * them, or by their number when there is no name. Audited as the system's doing. Returns the id.
 */
export async function subscribePayer(
  tx: Queryable,
  payer: { phone: string; name: string | null; paymentId: number | null; requestId: string | null },
): Promise<number> {
  const name = payer.name?.trim() || localPhone(payer.phone);
  const subscriber = await q.findOrCreateByPhone(tx, { name, phone: payer.phone, createdBy: null });
  if (subscriber.created) {
    await audit(tx, 'tips-subscriber.create', subscriber.id, { actorUserId: null, requestId: payer.requestId }, {
      after: { name, phone: payer.phone, payment_id: payer.paymentId },
    });
  }
  return subscriber.id;
}

/** When the subscriber's phone last signed in to the portal (their page in the back office). */
export async function lastPortalSignIn(db: Queryable, phone: string): Promise<string | null> {
  const at = await q.lastPortalSignIn(db, phone);
  return at ? new Date(at).toISOString() : null;
}
