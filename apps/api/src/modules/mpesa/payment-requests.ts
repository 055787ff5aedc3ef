import { and, asc, desc, eq, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  centsToKes,
  kesFixed,
  kesToCents,
  localPhone,
  successTextsMpesa,
  wholeShillingsUp,
  type PayableItem,
  type PaymentRequest,
  type RequestPayment,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import {
  bet4mePlans,
  betCategories,
  clients,
  mpesaPayments,
  pricePackages,
  stkRequests,
  tipsSubscribers,
} from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, fieldError, notFound } from '../../http/errors.ts';
import { darajaFor, DarajaError } from '../../integrations/mpesa/daraja.ts';
import { audit } from '../audit/service.ts';
import { pendingBonusCents } from '../bonuses/service.ts';
import { requireClient } from '../clients/service.ts';
import { settleFromQuery } from './stk-query.ts';

type Payer = { clientId: number } | { subscriberId: number };

const NOT_CONFIGURED =
  'M-Pesa is not configured on this server (MPESA_CONSUMER_KEY, MPESA_CONSUMER_SECRET, MPESA_SHORTCODE, MPESA_PASSKEY, MPESA_CALLBACK_BASE_URL), so no payment request can be sent.';

function payerOf(q: { client_id?: number | undefined; subscriber_id?: number | undefined }): Payer {
  return q.client_id !== undefined ? { clientId: q.client_id } : { subscriberId: q.subscriber_id! };
}

/** The payer's name and phone; a client must be in the actor's scope (404 otherwise). */
async function payerDetails(db: Queryable, actor: Actor, payer: Payer): Promise<{ name: string; phone: string }> {
  if ('clientId' in payer) {
    await requireClient(db, actor, payer.clientId);
    const [c] = await db.select({ name: clients.name, phone: clients.phone }).from(clients).where(eq(clients.id, payer.clientId));
    return c!;
  }
  const [s] = await db
    .select({ name: tipsSubscribers.name, phone: tipsSubscribers.phone })
    .from(tipsSubscribers)
    .where(eq(tipsSubscribers.id, payer.subscriberId));
  if (!s) throw notFound('This subscriber was not found.');
  return s;
}

/** Daraja takes whole shillings (no cents in STK's Amount): a price with cents is asked rounded up. */
/** The label says so when the amount asked is the price rounded up. */
const roundedNote = (cents: number) =>
  cents % 100 === 0 ? '' : ` (KES ${kesFixed(cents)} asked as KES ${centsToKes(wholeShillingsUp(cents))}: M-Pesa takes whole shillings)`;

interface Priced {
  item: PayableItem;
  purpose: 'package' | 'plan' | 'bonus';
  packageId?: number;
  planId?: number;
  accountReference: string;
}

/** What the payer can be asked to pay: tips packages for a subscriber; plans and the pending bonus for a client. */
async function payableItems(db: Queryable, payer: Payer): Promise<Priced[]> {
  if ('subscriberId' in payer) {
    const packages = await db
      .select({
        id: pricePackages.id,
        name: pricePackages.name,
        medium: pricePackages.medium,
        durationDays: pricePackages.durationDays,
        priceCents: pricePackages.priceCents,
        category: betCategories.name,
        code: betCategories.code,
      })
      .from(pricePackages)
      .innerJoin(betCategories, eq(betCategories.id, pricePackages.betCategoryId))
      .where(sql`${pricePackages.priceCents} > 0`)
      .orderBy(asc(betCategories.name), asc(pricePackages.medium), asc(pricePackages.durationDays));
    return packages.map((p) => ({
      item: {
        key: `package:${p.id}`,
        label: `${p.category} (${p.code}), ${p.medium.toUpperCase()}, ${p.durationDays} days${roundedNote(p.priceCents)}`,
        amount: centsToKes(wholeShillingsUp(p.priceCents)),
      },
      purpose: 'package' as const,
      packageId: p.id,
      accountReference: p.code,
    }));
  }
  const plans = await db
    .select()
    .from(bet4mePlans)
    .where(and(eq(bet4mePlans.active, true), sql`${bet4mePlans.priceCents} > 0`))
    .orderBy(asc(bet4mePlans.durationDays));
  const items: Priced[] = plans.map((p) => ({
    item: {
      key: `plan:${p.id}`,
      label: `${p.name} plan, ${p.durationDays} days${roundedNote(p.priceCents)}`,
      amount: centsToKes(wholeShillingsUp(p.priceCents)),
    },
    purpose: 'plan' as const,
    planId: p.id,
    accountReference: `B4M${payer.clientId}`,
  }));
  const pending = await pendingBonusCents(db, payer.clientId);
  if (pending > 0) {
    items.push({
      item: { key: 'bonus', label: 'Pending bonus', amount: centsToKes(wholeShillingsUp(pending)) },
      purpose: 'bonus',
      accountReference: `B4M${payer.clientId}`,
    });
  }
  return items;
}

interface RequestRow {
  id: number;
  phone: string;
  amount_cents: string;
  item: string | null;
  status: PaymentRequest['status'];
  result_desc: string | null;
  receipt: string | null;
  requested_at: string;
}

/** Payment requests with what they asked for and the receipt they were paid with. */
async function requestsWhere(db: Queryable, where: SQL, limit: number): Promise<PaymentRequest[]> {
  const found = await rows<RequestRow>(db, sql`
    select r.id, r.phone, r.amount_cents, r.status, r.result_desc, r.requested_at, p.trans_id as receipt,
           case r.purpose when 'bonus' then 'Pending bonus'
                          when 'plan' then pl.name || ' plan'
                          else pp.name end as item
      from ${stkRequests} r
      left join ${mpesaPayments} p on p.id = r.payment_id
      left join ${bet4mePlans} pl on pl.id = r.plan_id
      left join ${pricePackages} pp on pp.id = r.package_id
     where ${where}
     order by r.requested_at desc, r.id desc
     limit ${limit}`);
  return found.map((r) => ({
    id: Number(r.id),
    phone: localPhone(r.phone),
    amount: centsToKes(Number(r.amount_cents)),
    item: r.item ?? 'Payment',
    status: r.status,
    result_desc: r.result_desc,
    transaction_reference: r.receipt,
    requested_on: new Date(r.requested_at).toISOString(),
  }));
}

export async function paymentRequestOptions(
  deps: AppDeps,
  actor: Actor,
  query: { client_id?: number | undefined; subscriber_id?: number | undefined },
) {
  const payer = payerOf(query);
  const details = await payerDetails(deps.db, actor, payer);
  const items = await payableItems(deps.db, payer);
  const where = 'clientId' in payer ? sql`r.client_id = ${payer.clientId}` : sql`r.subscriber_id = ${payer.subscriberId}`;
  return {
    name: details.name,
    phone: localPhone(details.phone),
    items: items.map((i) => i.item),
    requests: await requestsWhere(deps.db, where, 5),
    configured: deps.config.mpesa.api !== null,
  };
}

/**
 * Sends an STK push for what was chosen. The request row is written first (pending), then Daraja
 * is called; its ids settle the row, or its refusal marks it failed and answers 502.
 */
export async function requestPayment(
  deps: AppDeps,
  actor: Actor,
  body: RequestPayment,
  requestId: string,
): Promise<{ info: string; request: PaymentRequest }> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) throw new AppError(503, NOT_CONFIGURED, { popup: true });
  const payer = payerOf(body);
  await payerDetails(deps.db, actor, payer);
  const chosen = (await payableItems(deps.db, payer)).find((i) => i.item.key === body.item);
  if (!chosen) throw fieldError('item', 'Choose one of the listed packages, plans or the pending bonus');
  const rowId = await pushStk(deps, daraja, { payer, chosen, phone: body.phone, actorUserId: actor.userId, requestId, item: body.item });
  const [request] = await requestsWhere(deps.db, sql`r.id = ${rowId}`, 1);
  return { info: successTextsMpesa.paymentRequested, request: request! };
}

/**
 * A texted category code (SMS keyword) asks for that category's cheapest SMS package: an STK push
 * to the sender, who must already be a subscriber. Null when M-Pesa is not configured or the
 * category has no SMS package; throws when M-Pesa refuses.
 */
export async function requestCheapestSmsPackage(
  deps: AppDeps,
  r: { subscriberId: number; phone: string; betCategoryId: number; requestId: string | null },
): Promise<number | null> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) return null;
  const [cheapest] = await deps.db
    .select({ id: pricePackages.id })
    .from(pricePackages)
    .where(and(eq(pricePackages.betCategoryId, r.betCategoryId), eq(pricePackages.medium, 'sms'), sql`${pricePackages.priceCents} > 0`))
    .orderBy(asc(pricePackages.priceCents), asc(pricePackages.durationDays))
    .limit(1);
  if (!cheapest) return null;
  return requestPackagePayment(deps, { ...r, packageId: cheapest.id });
}

/**
 * An STK push to the subscriber's phone for one tips package, asked by the punter themselves (no
 * staff user): the SMS keyword, the USSD menu. Null when M-Pesa is not configured or the package is
 * not for sale (no price); throws when M-Pesa refuses. Returns the payment request's id.
 */
export async function requestPackagePayment(
  deps: AppDeps,
  r: { subscriberId: number; phone: string; packageId: number; requestId: string | null },
): Promise<number | null> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) return null;
  const payer: Payer = { subscriberId: r.subscriberId };
  const chosen = (await payableItems(deps.db, payer)).find((i) => i.packageId === r.packageId);
  if (!chosen) return null;
  return pushStk(deps, daraja, { payer, chosen, phone: r.phone, actorUserId: null, requestId: r.requestId, item: chosen.item.key });
}

/**
 * The request row is written first (pending), then Daraja is called; its ids settle the row, or its
 * refusal marks it failed and answers 502. Returns the request's id.
 */
async function pushStk(
  deps: AppDeps,
  daraja: NonNullable<ReturnType<typeof darajaFor>>,
  p: { payer: Payer; chosen: Priced; phone: string; actorUserId: number | null; requestId: string | null; item: string },
): Promise<number> {
  const { payer, chosen } = p;
  const body = { phone: p.phone, item: p.item };
  const actor = { userId: p.actorUserId };
  const requestId = p.requestId;
  const amountCents = kesToCents(chosen.item.amount);

  const [row] = await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(stkRequests)
      .values({
        purpose: chosen.purpose,
        clientId: 'clientId' in payer ? payer.clientId : null,
        subscriberId: 'subscriberId' in payer ? payer.subscriberId : null,
        packageId: chosen.packageId ?? null,
        planId: chosen.planId ?? null,
        phone: body.phone,
        amountCents,
        accountReference: chosen.accountReference,
        requestedBy: actor.userId,
      })
      .returning({ id: stkRequests.id });
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'payment.request',
      entity: 'stk_request',
      entityId: inserted[0]!.id,
      after: { ...payer, item: body.item, phone: body.phone, amount_cents: amountCents },
      requestId,
    });
    return inserted;
  });

  try {
    const answer = await daraja.stkPush({
      phone: body.phone,
      amountKes: centsToKes(amountCents),
      accountReference: chosen.accountReference,
      description: chosen.purpose === 'bonus' ? 'Bonus' : chosen.purpose === 'plan' ? 'Bet4Me plan' : 'Tips package',
    });
    await deps.db
      .update(stkRequests)
      .set({ merchantRequestId: answer.merchantRequestId, checkoutRequestId: answer.checkoutRequestId })
      .where(eq(stkRequests.id, row!.id));
  } catch (error) {
    const reason = error instanceof DarajaError ? error.message : 'M-Pesa could not be reached';
    await deps.db
      .update(stkRequests)
      .set({ status: 'failed', resultDesc: reason, settledAt: sql`now()` })
      .where(eq(stkRequests.id, row!.id));
    throw new AppError(502, `M-Pesa did not accept the payment request: ${reason}`, { popup: true });
  }
  return row!.id;
}

/** One request; a staff user sees only requests to their own clients (or to tips subscribers). */
export async function showPaymentRequest(deps: AppDeps, actor: Actor, id: number): Promise<{ request: PaymentRequest }> {
  const [found] = await deps.db
    .select({ clientId: stkRequests.clientId })
    .from(stkRequests)
    .where(eq(stkRequests.id, id));
  if (!found) throw notFound('No such payment request.');
  if (found.clientId !== null) await requireClient(deps.db, actor, found.clientId);
  const [request] = await requestsWhere(deps.db, sql`r.id = ${id}`, 1);
  return { request: request! };
}

const MAX_QUERY_ATTEMPTS = 10;

/**
 * The re-check job: pending requests older than the STK timeout whose callback never came are asked
 * with an STK query, a few at a time, and settled by its answer.
 */
export async function recheckPendingRequests(deps: AppDeps): Promise<number> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) return 0;
  const cutoff = new Date(Date.now() - deps.config.mpesa.stkTimeoutSeconds * 1000);
  const due = await deps.db
    .select({ id: stkRequests.id, checkoutRequestId: stkRequests.checkoutRequestId })
    .from(stkRequests)
    .where(
      and(
        eq(stkRequests.status, 'pending'),
        lte(stkRequests.requestedAt, cutoff),
        or(sql`${stkRequests.queriedAt} is null`, lte(stkRequests.queriedAt, cutoff)),
      ),
    )
    .orderBy(desc(stkRequests.requestedAt))
    .limit(50);
  let settled = 0;
  for (const request of due) {
    if (!request.checkoutRequestId) {
      // Daraja never answered the push itself: nothing to ask about.
      await settleFromQuery(deps, request.id, { resultCode: null, resultDesc: '' }, 1);
      continue;
    }
    const answer = await daraja.stkQuery(request.checkoutRequestId).catch(() => ({ resultCode: null, resultDesc: '' }));
    const status = await settleFromQuery(deps, request.id, answer, MAX_QUERY_ATTEMPTS);
    if (status !== 'pending') settled += 1;
  }
  return settled;
}
