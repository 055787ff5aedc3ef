/**
 * Automatic renewal by M-Pesa Ratiba (decision 042). A subscriber turns it on for a
 * daily, weekly or monthly package; Betdesk asks Ratiba for a standing order of the package's price
 * to the paybill, with the package's account code as reference, starting the day the cover ends;
 * the subscriber approves it once with their PIN (the callback). Its runs arrive as ordinary C2B
 * confirmations and renew through the same settlement as any payment (`standingOrderRun`); a due
 * day that passes without one is found by the job and the subscriber told once how to pay by hand.
 */
import {
  addDays,
  centsToKes,
  nairobiDayOf,
  refusalTexts,
  wholeShillingsUp,
  type AutoRenewFrequency,
  type StandingOrder,
  type StandingOrderRow,
} from '@betdesk/contract';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { jsonValue, type TypedColumn } from '../../db/columns.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, conflict, fieldError, notFound } from '../../http/errors.ts';
import { saleBlockOf } from '../../db/sale-blocks.ts';
import { darajaFor, DarajaError } from '../../integrations/mpesa/daraja.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { customerDate } from '../../customer-texts/format.ts';
import { audit } from '../audit/service.ts';
import { accountLink, packageLink } from '../../customer-texts/links.ts';
import { getSetting } from '../settings/service.ts';
import { customerText, customerTextFor, languageOf, queueSms } from '../sms/service.ts';
import * as q from './queries.ts';

const RATIBA_FREQUENCY: Record<AutoRenewFrequency, '2' | '3' | '4'> = { daily: '2', weekly: '3', monthly: '4' };
/** How long a standing order runs before the subscriber would turn it on again (Ratiba needs an EndDate). */
const ORDER_YEARS = 1;
/** The last payment's day of a standing order starting on `start`. */
const endDay = (start: string) => addDays(start, 365 * ORDER_YEARS);
/** A standing order asked for on the USSD menu is sent once the session has surely ended. */
const USSD_SESSION_MS = 30_000;

/** The Ratiba frequency of a package's length: 1, 7 and 30/31 days only. */
export function frequencyOf(durationDays: number): AutoRenewFrequency | null {
  if (durationDays === 1) return 'daily';
  if (durationDays === 7) return 'weekly';
  if (durationDays === 30 || durationDays === 31) return 'monthly';
  return null;
}

/** `day` plus one period of the frequency (a month keeps the day of the month, clamped to its end). */
export function nextDay(day: string, frequency: AutoRenewFrequency): string {
  if (frequency === 'daily') return addDays(day, 1);
  if (frequency === 'weekly') return addDays(day, 7);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d, last))).toISOString().slice(0, 10);
}

/** Ratiba is offered only when the business turned it on and M-Pesa's API is configured. */
export async function ratibaOn(deps: AppDeps): Promise<boolean> {
  return deps.config.mpesa.api !== null && (await getSetting(deps.db, 'mpesa_ratiba_enabled')) === true;
}

async function requireRatiba(deps: AppDeps): Promise<void> {
  if (!(await ratibaOn(deps))) throw notFound(refusalTexts.autoRenewOff);
}

export function wireOrder(o: q.StandingOrderRecord): StandingOrder {
  return { id: o.id, status: o.status, next_date: o.nextDate, amount: centsToKes(o.amountCents), frequency: o.frequency, end_date: o.endDate };
}

function rowOf(o: q.StandingOrderRecord, packageName: string): StandingOrderRow {
  return {
    ...wireOrder(o),
    package: packageName,
    account_reference: o.accountReference,
    result_desc: o.resultDesc,
    missed_date: o.missedDate,
    created_at: o.createdAt.toISOString(),
    stopped_at: o.stoppedAt?.toISOString() ?? null,
  };
}

/** What a subscription line shows: its live standing order, or the offer to turn one on (null: neither). */
export type AutoRenewView =
  | { order: StandingOrder; subscriptionId: number }
  | { offer: { amount: number; frequency: AutoRenewFrequency; date: string; endDate: string; declinedOn: string | null }; subscriptionId: number };

/** The automatic renewal of one of the subscriber's subscriptions, as portal and USSD show it; null when Ratiba is off or it is not offered. */
export async function autoRenewView(deps: AppDeps, subscriberId: number, subscriptionId: number): Promise<AutoRenewView | null> {
  if (!(await ratibaOn(deps))) return null;
  const sub = await q.subscriptionWithPackage(deps.db, subscriberId, subscriptionId);
  if (!sub) return null;
  // One live order at most per subscriber and package (its unique index): the newest is the live one, if any.
  const latest = await q.latestOrderFor(deps.db, subscriberId, sub.packageId);
  if (latest && (q.LIVE as readonly string[]).includes(latest.status)) return { order: wireOrder(latest), subscriptionId };
  const frequency = frequencyOf(sub.durationDays);
  if (!frequency || !sub.onSale || sub.priceCents === null) return null;
  const date = startDay(sub.latestExpiry);
  // A declined order is said beside the offer to turn it on again (its SMS told the punter too).
  const declinedOn = latest?.status === 'declined' ? nairobiDayOf(latest.decidedAt ?? latest.createdAt) : null;
  return { offer: { amount: centsToKes(wholeShillingsUp(sub.priceCents)), frequency, date, endDate: endDay(date), declinedOn }, subscriptionId };
}

/** The automatic renewal to offer after a purchase: of the subscription the payment bought. */
export async function autoRenewAfterPurchase(deps: AppDeps, subscriberId: number, paymentId: number | null): Promise<AutoRenewView | null> {
  if (paymentId === null || !(await ratibaOn(deps))) return null;
  const subscriptionId = await q.subscriptionOfPayment(deps.db, subscriberId, paymentId);
  return subscriptionId === null ? null : autoRenewView(deps, subscriberId, subscriptionId);
}

/** The first payment's day: the Nairobi day the running cover ends, or today when it has ended. */
const startDay = (coverEnds: Date, now = new Date()) => nairobiDayOf(coverEnds > now ? coverEnds : now);

/**
 * Turns on automatic renewal of a subscription: a standing order for its package (the same live one
 * when asked twice). From the portal it is sent to Ratiba at once; from the USSD menu it is queued
 * and sent by the job once the session has ended (the PIN prompt cannot come during a session).
 */
export async function turnOn(
  deps: AppDeps,
  r: { subscriberId: number; phone: string; subscriptionId: number; via: 'portal' | 'ussd'; requestId: string | null },
): Promise<{ standing_order: StandingOrder }> {
  await requireRatiba(deps);
  // A self-excluded or under-18 person can make no new standing order (decision 059).
  if (await saleBlockOf(deps.db, r.phone)) throw conflict(refusalTexts.autoRenewExcluded);
  const sub = await q.subscriptionWithPackage(deps.db, r.subscriberId, r.subscriptionId);
  if (!sub) throw notFound(refusalTexts.autoRenewSubscriptionNotFound);
  const frequency = frequencyOf(sub.durationDays);
  if (!frequency) throw fieldError('subscription_id', refusalTexts.autoRenewFrequency);
  if (!sub.onSale || sub.priceCents === null) throw fieldError('subscription_id', refusalTexts.autoRenewPackageGone);
  const existing = await q.liveOrderFor(deps.db, r.subscriberId, sub.packageId);
  if (existing) return { standing_order: wireOrder(existing) };

  const start = startDay(sub.latestExpiry);
  const order = await deps.db.transaction(async (tx) => {
    const inserted = await q.insertOrder(tx, {
      subscriberId: r.subscriberId,
      packageId: sub.packageId,
      subscriptionId: sub.id,
      phone: r.phone,
      name: `betdesk-${r.subscriberId}-${sub.packageId}-${Date.now().toString(36)}`,
      amountCents: wholeShillingsUp(sub.priceCents!),
      frequency,
      accountReference: sub.code,
      startDate: start,
      endDate: endDay(start),
      nextDate: start,
      status: 'requested',
    });
    if (!inserted) return null;
    await audit(tx, 'auto-renew.request', inserted.id, { actorUserId: null, requestId: r.requestId }, {
      after: { subscriber_id: r.subscriberId, package_id: sub.packageId, frequency, amount_cents: inserted.amountCents, start_date: start, via: r.via },
    });
    return inserted;
  });
  // Asked twice at once: the other request's order is the one.
  if (!order) return { standing_order: wireOrder((await q.liveOrderFor(deps.db, r.subscriberId, sub.packageId))!) };
  if (r.via === 'ussd') return { standing_order: wireOrder(order) };
  return { standing_order: wireOrder(await sendOrder(deps, order, true)) };
}

/**
 * Sends a requested standing order to Ratiba: pending (waiting for the PIN) with Daraja's reference,
 * or failed with M-Pesa's words. `loud`: a refusal is also answered 502 (the portal's request).
 */
async function sendOrder(deps: AppDeps, order: q.StandingOrderRecord, loud: boolean): Promise<q.StandingOrderRecord> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  let outcome: Parameters<typeof q.moveOrder>[3];
  try {
    if (!daraja) throw new DarajaError('M-Pesa is not configured on this server');
    const answer = await daraja.createStandingOrder({
      name: order.name,
      phone: order.phone,
      amountKes: centsToKes(order.amountCents),
      accountReference: order.accountReference,
      frequency: RATIBA_FREQUENCY[order.frequency],
      startDate: order.startDate,
      endDate: order.endDate,
    });
    outcome = { status: 'pending', responseRefId: answer.responseRefId };
  } catch (error) {
    const reason = error instanceof DarajaError ? error.message : 'M-Pesa could not be reached';
    outcome = { status: 'failed', resultCode: error instanceof DarajaError ? error.code : null, resultDesc: reason, decidedAt: new Date() };
  }
  const moved = (await q.moveOrder(deps.db, order.id, ['requested'], outcome)) ?? (await q.orderById(deps.db, order.id))!;
  if (loud && outcome.status === 'failed') {
    throw new AppError(502, `M-Pesa did not accept the automatic renewal: ${outcome.resultDesc ?? ''}`, { popup: true });
  }
  return moved;
}

/** Daraja's Ratiba callback, read leniently: the header's key casing differs between Safaricom's own examples. */
function readCallback(body: unknown): { responseRefId: string; code: string; description: string } | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  const header = (b.ResponseHeader ?? b.responseHeader) as Record<string, unknown> | undefined;
  if (!header || typeof header !== 'object') return null;
  const responseRefId = header.responseRefID ?? header.ResponseRefID;
  if (typeof responseRefId !== 'string' || responseRefId === '') return null;
  const data = ((b.ResponseBody ?? b.responseBody) as { ResponseData?: unknown } | undefined)?.ResponseData;
  const item = (name: string) =>
    Array.isArray(data) ? (data as { Name?: string; Value?: unknown }[]).find((d) => d.Name?.toLowerCase() === name.toLowerCase())?.Value : undefined;
  const code = String(item('responseCode') ?? header.responseCode ?? header.ResponseCode ?? '');
  const status = String(item('Status') ?? '');
  return {
    responseRefId,
    // OKAY with code 0 approves; anything else is a no.
    code: code === '0' && status.toUpperCase() !== 'ERROR' ? '0' : code || '1',
    description: String(header.responseDescription ?? header.ResponseDescription ?? ''),
  };
}

/**
 * The subscriber approved (code 0) or declined the standing order. Only a pending order moves, so a
 * repeated callback changes nothing and sends nothing twice. Either answer is told by SMS in the
 * subscriber's language: an approval with its amount, next day and end, a decline with how to
 * turn it on again (nothing will be taken, and the cover ends as it was).
 */
export async function receiveRatibaCallback(deps: AppDeps, body: unknown, requestId: string | null): Promise<void> {
  const answer = readCallback(body);
  if (!answer) return;
  const order = await q.orderByResponseRef(deps.db, answer.responseRefId);
  if (!order) return;
  const approved = answer.code === '0';
  const queued = await deps.db.transaction(async (tx) => {
    const moved = await q.moveOrder(tx, order.id, ['pending'], {
      status: approved ? 'active' : 'declined',
      resultCode: answer.code,
      resultDesc: answer.description || null,
      decidedAt: new Date(),
    });
    if (!moved) return false;
    await audit(tx, approved ? 'auto-renew.approve' : 'auto-renew.decline', order.id, { actorUserId: null, requestId }, {
      before: { status: 'pending' },
      after: { status: moved.status, result_code: answer.code },
    });
    const language = await languageOf(tx, order.phone);
    const intent = approved ? 'auto-renew.on' : 'auto-renew.declined';
    const id = await queueSms(tx, {
      intent,
      dedupeKey: `${approved ? 'auto-renew-on' : 'auto-renew-declined'}:${order.id}`,
      to: order.phone,
      body: approved
        ? await customerText(tx, 'sms.auto_renew_on', language, {
            package: await q.packageName(tx, order.packageId),
            amount: centsToKes(order.amountCents).toFixed(0),
            frequency: order.frequency,
            date: customerDate(order.nextDate, language),
            end: customerDate(order.endDate, language),
            link: accountLink(deps.config),
          })
        : await customerText(tx, 'sms.auto_renew_declined', language, {
            package: await q.packageName(tx, order.packageId),
            link: accountLink(deps.config),
          }),
      createdBy: null,
      subscriberId: order.subscriberId,
      smsClass: 'transactional',
    });
    return id !== null;
  });
  if (queued) await deps.jobs.nudge(QUEUES.smsDispatch);
}

/**
 * Stops automatic renewal in one step (the subscriber on the portal or USSD, or staff), confirmed
 * by SMS. Ratiba documents no cancel request: Betdesk stops counting on it, and the SMS asks the
 * subscriber to cancel the standing order in the M-Pesa app or *334# too. Stopping twice is once.
 */
export async function stop(
  deps: AppDeps,
  r: { orderId: number; subscriberId: number | null; actorUserId: number | null; requestId: string | null },
): Promise<{ order: q.StandingOrderRecord; packageName: string }> {
  await requireRatiba(deps);
  const order = await q.orderById(deps.db, r.orderId);
  if (!order || (r.subscriberId !== null && order.subscriberId !== r.subscriberId)) throw notFound(refusalTexts.autoRenewNotFound);
  const name = await q.packageName(deps.db, order.packageId);
  const stopped = await deps.db.transaction(async (tx) => {
    const moved = await q.moveOrder(tx, order.id, q.LIVE, { status: 'stopped', stoppedAt: new Date(), stoppedBy: r.actorUserId });
    if (!moved) return null;
    await audit(tx, 'auto-renew.stop', order.id, r, {
      before: { status: order.status },
      after: { status: 'stopped', by: r.actorUserId === null ? 'subscriber' : 'staff' },
    });
    await queueSms(tx, {
      intent: 'auto-renew.stopped',
      dedupeKey: `auto-renew-stopped:${order.id}`,
      to: order.phone,
      body: await customerTextFor(tx, order.phone, 'sms.auto_renew_stopped', { package: name }),
      createdBy: r.actorUserId,
      subscriberId: order.subscriberId,
      smsClass: 'transactional',
    });
    return moved;
  });
  if (stopped) await deps.jobs.nudge(QUEUES.smsDispatch);
  return { order: stopped ?? (await q.orderById(deps.db, order.id))!, packageName: name };
}

/**
 * A self-exclusion stops every live standing order of the person's phone (decision 059), in the
 * exclusion's transaction, audited and told as any stop; none starts again by itself when it ends.
 * Whatever the Ratiba setting: an order made while it was on must stop all the same.
 */
export async function stopOrdersOfExcludedPhone(tx: Queryable, phone: string, by: { actorUserId: number | null; requestId?: string | null | undefined }): Promise<number> {
  let stopped = 0;
  for (const order of await q.liveOrdersOfPhone(tx, phone)) {
    const moved = await q.moveOrder(tx, order.id, q.LIVE, { status: 'stopped', stoppedAt: new Date(), stoppedBy: by.actorUserId });
    if (!moved) continue;
    stopped += 1;
    await audit(tx, 'auto-renew.stop', order.id, by, { before: { status: order.status }, after: { status: 'stopped', by: 'self-exclusion' } });
    await queueSms(tx, {
      intent: 'auto-renew.stopped',
      dedupeKey: `auto-renew-stopped:${order.id}`,
      to: order.phone,
      body: await customerTextFor(tx, order.phone, 'sms.auto_renew_stopped', { package: await q.packageName(tx, order.packageId) }),
      createdBy: by.actorUserId,
      subscriberId: order.subscriberId,
      smsClass: 'transactional',
    });
  }
  return stopped;
}

/**
 * A pause of the subscription (decision 090) moves the due day of the live standing order of its
 * package by the days paused, in the pause's transaction. Ratiba documents no request to change a
 * standing order: Betdesk's due day moves (the missed-run reminder follows it) and the pause's SMS
 * asks the subscriber to pause it in the M-Pesa app or *334# too. Null when there is no live order.
 */
export async function moveDueDayForPause(
  tx: Queryable,
  p: { subscriberId: number; packageId: number | null; days: number },
): Promise<{ orderId: number; before: string; after: string } | null> {
  if (p.packageId === null) return null;
  const order = await q.liveOrderFor(tx, p.subscriberId, p.packageId);
  if (!order) return null;
  const after = addDays(order.nextDate, p.days);
  await q.setDueDay(tx, order.id, after);
  return { orderId: order.id, before: order.nextDate, after };
}

/** The back office's stop: the subscriber's page. */
export async function stopByStaff(deps: AppDeps, actorUserId: number, orderId: number, requestId: string) {
  const { order, packageName } = await stop(deps, { orderId, subscriberId: null, actorUserId, requestId });
  return { info: 'Automatic renewal stopped; the subscriber was told by SMS', standing_order: rowOf(order, packageName) };
}

/** A subscriber's standing orders for the back office (404 when Ratiba is off: nothing is shown). */
export async function ordersOfSubscriber(deps: AppDeps, subscriberId: number): Promise<{ standing_orders: StandingOrderRow[] }> {
  await requireRatiba(deps);
  const found = await q.ordersOfSubscriber(deps.db, subscriberId);
  return { standing_orders: found.map((f) => rowOf(f.order, f.packageName)) };
}

/**
 * A confirmation from a payer with an active standing order for this account code and exactly its
 * amount is that order's run: it buys the order's package (source `ratiba`), and the next due day
 * moves on by one period. Run inside the payment's transaction; null when it is no run.
 */
export async function standingOrderRun(
  tx: Queryable,
  p: { subscriberId: number; account: string; amountCents: number },
  /** The order as `standingOrderColumn` read it with another statement (the look-up is then skipped). */
  prefetched?: { order: StandingOrderPaying | null },
) {
  const order = prefetched ? prefetched.order : await q.activeOrderPaying(tx, p.subscriberId, p.account, p.amountCents);
  if (!order) return null;
  return {
    packageId: order.packageId,
    /** Records the run once the payment row exists. */
    recorded: async (sp: Queryable, paymentId: number, now = new Date()) => {
      const current = (await q.orderById(sp, order.id))!;
      const today = nairobiDayOf(now);
      let next = nextDay(current.nextDate, current.frequency);
      while (next <= today) next = nextDay(next, current.frequency);
      await q.setRun(sp, order.id, { nextDate: next, paymentId });
    },
  };
}

export type StandingOrderPaying = NonNullable<ReturnType<typeof q.standingOrderOf>>;

/**
 * The standing order `standingOrderRun` looks up, as a column of another read (the C2B confirmation's
 * first read, per subscriber of the sender's phone): one round trip fewer per payment.
 */
export function standingOrderColumn(subscriberId: SQL, p: { account: string; amountCents: number }): TypedColumn<StandingOrderPaying | null> {
  return {
    sql: q.activeOrderPayingColumn(subscriberId, p.account, p.amountCents),
    read: (stored) => q.standingOrderOf(jsonValue(stored) as { id: number; package_id: number } | null),
  };
}

/**
 * The auto-renewal job: sends the standing orders asked for on USSD, then — from the reminder hour
 * of the day after a due day — tells each subscriber whose run did not come, once, how to pay by
 * hand, and moves the order on to its next due day.
 */
export async function runAutoRenewal(deps: AppDeps, now = new Date()) {
  const out = { sent: 0, missed: 0 };
  for (const id of await q.requestedBefore(deps.db, new Date(now.getTime() - USSD_SESSION_MS))) {
    const order = await q.orderById(deps.db, id);
    if (order?.status !== 'requested') continue;
    await sendOrder(deps, order, false);
    out.sent += 1;
  }
  const hour = await getSetting(deps.db, 'recovery_reminder_hour');
  const nairobiHour = new Date(now.getTime() + 3 * 3_600_000).getUTCHours();
  if (nairobiHour < hour) return out;
  const today = nairobiDayOf(now);
  for (const order of await q.overdue(deps.db, today)) {
    let next = nextDay(order.nextDate, order.frequency);
    while (next < today) next = nextDay(next, order.frequency);
    const told = await deps.db.transaction(async (tx) => {
      if (!(await q.markMissed(tx, order.id, order.nextDate, next))) return false;
      const language = await languageOf(tx, order.phone);
      await queueSms(tx, {
        intent: 'auto-renew.missed',
        dedupeKey: `auto-renew-missed:${order.id}:${order.nextDate}`,
        to: order.phone,
        body: await customerText(tx, 'sms.auto_renew_missed', language, {
          package: await q.packageName(tx, order.packageId),
          amount: centsToKes(order.amountCents).toFixed(0),
          date: customerDate(order.nextDate, language),
          paybill: deps.config.mpesa.api?.shortcode ?? '',
          account: order.accountReference,
          // The package's page: paid by hand there (STK push) this once.
          link: packageLink(deps.config, order.packageId),
        }),
        createdBy: null,
        subscriberId: order.subscriberId,
        smsClass: 'transactional',
      });
      return true;
    });
    if (told) out.missed += 1;
  }
  if (out.missed > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  return out;
}
