/**
 * Free trials of a package (decision 089). A package may offer so many days free, once per phone,
 * optionally only with automatic renewal set up. A trial is not a sale: its subscription has source
 * `trial` and amount 0, posts nothing to the ledger and gets no tax invoice, and no sales or
 * retention figure counts it; the trials are counted apart (`trialFigures`). With automatic
 * renewal, the Ratiba standing order is set up when the trial starts, its first debit the day the
 * trial ends (Ratiba's StartDate is that first debit's day). The first paid subscription of the
 * trial's bet category and medium converts the trial (`trial_uses.converted_subscription_id`, set
 * by the `subscriptions_convert_trial` trigger whatever path bought it).
 */
import { centsToKes, nairobiDayOf, portalTexts, refusalTexts, wholeShillingsUp, type PortalTrial } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { saleBlockOf } from '../../db/sale-blocks.ts';
import { AppError, conflict, fieldError, notFound } from '../../http/errors.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { customerDate } from '../../customer-texts/format.ts';
import { fixedText } from '../../customer-texts/texts.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { audit } from '../audit/service.ts';
import { frequencyOf, ratibaOn, turnOn as turnOnAutoRenew } from '../auto-renew/service.ts';
import { declareAdult, mustDeclareAge } from '../compliance/service.ts';
import { isErasedPhone, languageOf } from '../sms/service.ts';
import { activateSubscription, withdrawTrial } from '../subscriptions/service.ts';
import { packageForSale, packageTrial } from '../tips-prices/service.ts';
import { subscribePayer } from '../tips-subscribers/service.ts';
import * as q from './queries.ts';

/** The trial a package page offers a phone: its days, and whether it comes with automatic renewal. */
export interface TrialOffer {
  days: number;
  needsAutoRenew: boolean;
  /** Whether the phone may ask for automatic renewal with it (Ratiba on and the package renewable). */
  autoRenewPossible: boolean;
  /** The standing order's amount (whole shillings) and its first debit's day were the trial started now. */
  amount: number;
  firstDebit: string;
}

/**
 * The trial a package offers this phone, or null: none set, already taken, or any lever barred
 * (an erased phone, a self-excluded or under-18 person; decision 059). Signed out: the offer is
 * shown, and checked when the phone asks for it.
 */
export async function trialOffer(deps: AppDeps, packageId: number, phone: string | null): Promise<TrialOffer | null> {
  const trial = await packageTrial(deps.db, packageId);
  if (!trial || trial.trialDays === 0 || trial.priceCents <= 0) return null;
  const autoRenewPossible = frequencyOf(trial.durationDays) !== null && (await ratibaOn(deps));
  if (trial.trialNeedsAutoRenew && !autoRenewPossible) return null;
  if (phone !== null && (await refusalOf(deps.db, packageId, phone)) !== null) return null;
  return {
    days: trial.trialDays,
    needsAutoRenew: trial.trialNeedsAutoRenew,
    autoRenewPossible,
    amount: centsToKes(wholeShillingsUp(trial.priceCents)),
    firstDebit: nairobiDayOf(new Date(Date.now() + trial.trialDays * 86_400_000)),
  };
}

type Refusal = 'erased' | 'self_exclusion' | 'under_18' | 'used';

/** Why this phone may not start this package's trial, or null. */
async function refusalOf(db: Queryable, packageId: number, phone: string): Promise<Refusal | null> {
  if (await isErasedPhone(db, phone)) return 'erased';
  const block = await saleBlockOf(db, phone);
  if (block) return block;
  if (await q.trialUseOf(db, packageId, sha256Hex(phone))) return 'used';
  return null;
}

function refusalError(refusal: Refusal, language: Language): AppError {
  if (refusal === 'erased') return conflict(fixedText('portal.trial.erased', language), 'trial-erased');
  if (refusal === 'self_exclusion') return conflict(fixedText('portal.trial.excluded', language), 'trial-excluded');
  if (refusal === 'under_18') return conflict(refusalTexts.saleBlockedUnder18, 'trial-under-18');
  return conflict(fixedText('portal.trial.used', language), 'trial-used');
}

/**
 * Starts a package's free trial for a phone (the portal's "Start a free trial"). Refused, saying
 * why, for an erased phone, a self-excluded or under-18 person, and a phone that had this
 * package's trial (the unique index decides when two tries race). The 18+ declaration is asked for
 * as before a first purchase (decision 060). With automatic renewal, the standing order is asked
 * for once the trial exists; if M-Pesa refuses it, a trial that needs it is withdrawn (void) and
 * the phone may try again.
 */
export async function startTrial(
  deps: AppDeps,
  r: { phone: string; packageId: number; autoRenew: boolean; adult: boolean; requestId: string },
): Promise<{ info: string; trial: PortalTrial }> {
  const { db } = deps;
  const language = await languageOf(db, r.phone);
  const chosen = await packageForSale(db, r.packageId);
  if (!chosen) throw fieldError('package_id', portalTexts.noPackage);
  const trial = await packageTrial(db, r.packageId);
  if (!trial || trial.trialDays === 0) throw fieldError('package_id', fixedText('portal.trial.none', language));
  const refusal = await refusalOf(db, r.packageId, r.phone);
  if (refusal) throw refusalError(refusal, language);
  if (trial.trialNeedsAutoRenew && !r.autoRenew) throw fieldError('auto_renew', fixedText('portal.trial.needs_auto_renew', language));
  if (r.autoRenew && !(await ratibaOn(deps))) throw notFound(refusalTexts.autoRenewOff);
  if (r.autoRenew && !frequencyOf(chosen.durationDays)) throw fieldError('auto_renew', refusalTexts.autoRenewFrequency);
  if (await mustDeclareAge(db, r.phone)) {
    if (!r.adult) throw fieldError('adult', portalTexts.ageRequired);
    await declareAdult(db, r.phone, 'portal');
  }

  const started = await db.transaction(async (tx) => {
    const subscriberId = await subscribePayer(tx, { phone: r.phone, name: null, paymentId: null, requestId: r.requestId });
    const sub = await activateSubscription(tx, {
      what: { subscriberId, packageId: chosen.id, betCategoryId: chosen.betCategoryId, medium: chosen.medium },
      durationDays: trial.trialDays,
      amountCents: 0,
      source: 'trial',
      requestId: r.requestId,
    });
    const use = await q.insertTrialUse(tx, {
      packageId: chosen.id,
      subscriberId,
      phoneHash: sha256Hex(r.phone),
      trialDays: trial.trialDays,
      subscriptionId: sub.id,
    });
    // Two tries at once: the other one's trial is the one (this transaction writes nothing).
    if (!use) throw refusalError('used', language);
    await audit(tx, 'trial.start', use.id, { actorUserId: null, requestId: r.requestId }, {
      after: { package_id: chosen.id, subscriber_id: subscriberId, trial_days: trial.trialDays, auto_renew: r.autoRenew, subscription_id: sub.id },
    });
    return { use, subscriberId, subscriptionId: sub.id, expiresAt: sub.expiresAt };
  });

  const standingOrder = r.autoRenew ? await setUpAutoRenewal(deps, r, trial.trialNeedsAutoRenew, started) : null;
  const values = { package: chosen.name, date: customerDate(started.expiresAt, language) };
  return {
    info: fixedText(standingOrder ? 'portal.trial.started_auto_renew' : 'portal.trial.started', language, values),
    trial: { subscription_id: started.subscriptionId, package_id: chosen.id, ends_at: started.expiresAt.toISOString(), standing_order: standingOrder },
  };
}

/** The standing order of a trial with automatic renewal: its first debit the day the trial ends. */
async function setUpAutoRenewal(
  deps: AppDeps,
  r: { phone: string; requestId: string },
  needed: boolean,
  started: { use: q.TrialUse; subscriberId: number; subscriptionId: number },
) {
  try {
    const { standing_order } = await turnOnAutoRenew(deps, {
      subscriberId: started.subscriberId,
      phone: r.phone,
      subscriptionId: started.subscriptionId,
      via: 'portal',
      requestId: r.requestId,
    });
    await q.setStandingOrder(deps.db, started.use.id, standing_order.id);
    return standing_order;
  } catch (error) {
    // A trial offered without automatic renewal stands on its own: it runs, and the subscriber may
    // turn renewal on later from My account.
    if (!needed) return null;
    await deps.db.transaction(async (tx) => {
      await withdrawTrial(tx, { subscriptionId: started.subscriptionId, requestId: r.requestId, note: 'Free trial withdrawn: M-Pesa refused its automatic renewal' });
      await q.deleteTrialUse(tx, started.use.id);
    });
    throw error;
  }
}

/** Trials started and converted in [start, end), counted apart from sales (decision 089). */
export function trialFigures(db: Queryable, range: { start: Date; end: Date }) {
  return q.trialCounts(db, range.start, range.end);
}

