import { ourShortcodes } from '../../config.ts';
import type { AppDeps } from '../../deps.ts';
import { withPreparedStatements, type Queryable } from '../../db/client.ts';
import { retryingLostRaces } from '../../db/conflicts.ts';
import { standingOrderRun } from '../auto-renew/service.ts';
import { ageHoldWarning, holdForAgeReply, mustDeclareAge } from '../compliance/service.ts';
import { keepRefusedPayment, refusedPaymentWarning } from '../exclusions/service.ts';
import { postWithLedgerEntry } from '../ledger/service.ts';
import { getSetting } from '../settings/service.ts';
import { subscribePayer } from '../tips-subscribers/service.ts';
import { parseC2b, type C2bFields } from './c2b-payload.ts';
import {
  afterCommit,
  announceCommittedPayment,
  announcePayment,
  applyClaim,
  notSettledWarning,
  settleStored,
  type Claim,
  type PaymentNotice,
  type Receipt,
} from './ingest.ts';
import {
  accountLooksValid,
  categoryNamedBy,
  ERASED_PAYER_WARNING,
  matchPayment,
  newTipsPayer,
  normaliseAccount,
  paidByErasedPerson,
  promoCodeInAccount,
  senderPhoneHash,
} from './matching.ts';
import type { SaleBlock } from '../../db/schema/index.ts';
import * as claimsQ from './queries/claims.ts';
import { readFirst, type AgeChecked, type NamedCategory } from './purchase-plan.ts';
import type { SettlementOutcome } from './settle.ts';

/** The claim the rules make of a confirmation they matched (no staff member involved). */
function automaticClaim(
  paymentId: number,
  f: C2bFields,
  match: Pick<Claim, 'payee' | 'betCategoryId' | 'matchedBy' | 'payer'>,
  requestId: string | null,
  /** The category the account names: with a hyphen and a code after it, the sale may use the code (decision 086). */
  category: NamedCategory | undefined,
): Claim {
  const promoCode = promoCodeInAccount(f.billRefNumber, category);
  return {
    paymentId,
    transId: f.transId,
    amountCents: f.amountCents!,
    payee: match.payee,
    ...(match.payer ? { payer: match.payer } : {}),
    betCategoryId: match.betCategoryId,
    source: 'mpesa',
    buyerPhone: f.senderPhone,
    matchedBy: match.matchedBy,
    actorUserId: null,
    requestId,
    ...(promoCode ? { promoCode } : {}),
  };
}

/**
 * A tips payer the rules did not find becomes a subscriber when their phone is known (pay to
 * subscribe), and the stored payment is settled for them.
 */
async function settleNewPayer(
  tx: Queryable,
  paymentId: number,
  f: C2bFields,
  category: NamedCategory | undefined,
  requestId: string | null,
  erased: boolean | undefined,
  rules: Rules,
) {
  const match = await subscribeNewPayer(tx, paymentId, f, category, requestId, erased);
  if (!match) return { status: 'unclaimed' as const, outcome: null };
  // In the whole transaction, a lost race is run again whole (`receiveC2bConfirmation`) rather than kept unsettled.
  const lostRaces = rules === 'whole-transaction' ? 'throw' : 'keep';
  const { outcome, error } = await settleStored(tx, automaticClaim(paymentId, f, match, requestId, category), { lostRaces });
  return { status: outcome ? ('claimed' as const) : ('unclaimed' as const), outcome, error };
}

async function subscribeNewPayer(
  tx: Queryable,
  paymentId: number,
  f: C2bFields,
  category: NamedCategory | undefined,
  requestId: string | null,
  /** Whether the payer was erased, when the caller read it with its first look-ups. */
  erased?: boolean,
) {
  if (erased ?? (await paidByErasedPerson(tx, f))) {
    // Their money is kept and counted, but nobody is re-created from it: an admin claims it by hand.
    await claimsQ.setPaymentWarning(tx, paymentId, ERASED_PAYER_WARNING);
    return null;
  }
  const payer = await newTipsPayer(tx, f, category);
  if (!payer) return null;
  const subscriberId = await subscribePayer(tx, { phone: payer.phone, name: f.senderName, paymentId, requestId });
  return { payee: { subscriberId }, betCategoryId: payer.betCategoryId, matchedBy: 'account' as const };
}

/**
 * A payment held for its payer's reply 18 (decision 066), sold now that the phone declared: the
 * rules run on the stored row as they would have on arrival (the subscriber it names, or a new
 * tips payer subscribed), and its warning goes. A payment claimed, refunded or being refunded
 * meanwhile is left as it is (null). Run in the reply's transaction.
 */
export async function sellHeldPayment(tx: Queryable, paymentId: number, requestId: string | null): Promise<SettlementOutcome | null> {
  const p = await claimsQ.lockPayment(tx, paymentId);
  if (!p || p.status !== 'unclaimed' || p.amountCents === null || p.refundedCents > 0 || (await claimsQ.hasLiveRefund(tx, paymentId))) return null;
  const f: C2bFields = {
    transId: p.transId,
    transactionType: p.transactionType,
    amountCents: p.amountCents,
    billRefNumber: p.billRefNumber,
    msisdn: p.msisdn,
    msisdnKind: p.msisdnKind,
    senderPhone: p.senderPhone,
    senderName: p.senderName,
    transTime: p.transTime,
    businessShortCode: p.businessShortCode,
  };
  const category = await categoryNamedBy(tx, normaliseAccount(f.billRefNumber));
  const match = (await matchPayment(tx, f, category)) ?? (await subscribeNewPayer(tx, paymentId, f, category, requestId));
  if (!match || !('subscriberId' in match.payee)) return null;
  const { outcome } = await settleStored(tx, automaticClaim(paymentId, f, match, requestId, category));
  // Sold: the hold's warning goes (a failure of the rules left its own instead).
  if (outcome) await claimsQ.setPaymentWarning(tx, paymentId, null);
  return outcome;
}

/**
 * Whether a tips sale to this phone waits for its reply 18: what the first read found when it read
 * this phone, else read now (a payment whose buyer is not the phone the first read guessed).
 */
async function waitsForAge(tx: Queryable, phone: string, checked: AgeChecked | null): Promise<boolean> {
  return checked?.phone === phone ? checked.undeclared : mustDeclareAge(tx, phone);
}

type Stored = Receipt & { outcome: SettlementOutcome | null; notice: PaymentNotice | null };

/**
 * How a matched payment's rules run: in a savepoint of the caller's transaction (a failure leaves
 * the payment stored unclaimed in it), in the whole transaction (a failure throws: the caller stores
 * it again with `failed`), or not at all after such a failure (stored unclaimed, with the error).
 */
type Rules = 'in-savepoint' | 'whole-transaction' | { failed: unknown };

/**
 * A C2B confirmation: stored once per TransID (a repeat, even 20 at once, is acknowledged and
 * ignored through the unique constraint), raw payload kept, then matched and settled in the same
 * transaction `tx`, and announced to the admins' screens when it commits. A payload that cannot be
 * read is stored as rejected with the reason. `source` says how it reached us: the callback, or
 * recovered later by Pull Transactions or a portal statement (then it counts on the day M-Pesa
 * received it, its TransTime).
 */
export async function storeC2bConfirmation(
  tx: Queryable,
  shortCodes: string | readonly string[] | undefined,
  raw: unknown,
  requestId: string | null,
  source: 'c2b' | 'pull' | 'statement' = 'c2b',
): Promise<Receipt & { outcome: SettlementOutcome | null }> {
  const { notice, ...stored } = await storeAndSettle(tx, shortCodes, raw, requestId, source);
  if (notice) await announcePayment(tx, notice);
  return stored;
}

/** The confirmation's work in `tx`, answering the admins' notice instead of announcing it. */
async function storeAndSettle(
  tx: Queryable,
  shortCodes: string | readonly string[] | undefined,
  raw: unknown,
  requestId: string | null,
  source: 'c2b' | 'pull' | 'statement',
  rules: Rules = 'in-savepoint',
): Promise<Stored> {
  const { fields: f, rejectReason, warning, raw: storable } = parseC2b(raw, shortCodes);
  const values = {
    // A rejected payload keeps its TransID in the raw body only, so it never blocks the real one.
    transId: rejectReason ? null : f.transId,
    source,
    transactionType: f.transactionType,
    amountCents: f.amountCents,
    billRefNumber: f.billRefNumber,
    msisdn: f.msisdn,
    msisdnKind: f.msisdnKind,
    senderPhone: f.senderPhone,
    senderName: f.senderName,
    transTime: f.transTime,
    businessShortCode: f.businessShortCode,
    raw: storable,
    status: rejectReason ? ('rejected' as const) : ('unclaimed' as const),
    rejectReason,
    warning,
    ...(source !== 'c2b' && f.transTime ? { receivedAt: f.transTime } : {}),
  };
  const notice = (paymentId: number, status: 'claimed' | 'unclaimed'): PaymentNotice => ({
    paymentId,
    amountCents: f.amountCents!,
    senderName: f.senderName,
    account: f.billRefNumber,
    status,
  });
  const repeat: Stored = { stored: false, paymentId: null, status: null, outcome: null, notice: null };
  let settleError: unknown;
  // The tips category the account names: read once, for the match and for a new payer.
  let category: NamedCategory | undefined;
  let payerErased: boolean | undefined;
  let payerBlocked: SaleBlock | null = null;
  let buyer: AgeChecked | null = null;
  // A tips sale to a phone that never declared it is 18 or older waits for its reply 18 (decision 066).
  let ageHeld: { phone: string; graceHours: number } | null = null;
  if (!rejectReason && !warning) {
    const first = await readFirst(tx, f);
    if (first.adopted !== null) return { stored: false, paymentId: first.adopted, status: null, outcome: null, notice: null };
    category = first.category;
    payerErased = first.payerErased;
    payerBlocked = first.payerBlocked;
    buyer = first.buyer;
    if (typeof rules === 'object') settleError = rules.failed;
    // The payee is looked up before the row is written, so that a matched payment is stored claimed
    // with its settlement (in a savepoint, or on the webhook's path in the whole transaction): one
    // write of the row (its indexes, the day summaries) instead of a write and an update. A repeat
    // writes nothing and settles nothing. After a failure of the rules (`failed`), nothing is matched.
    // Money from a self-excluded or under-18 payer buys nothing: it is kept unclaimed for a refund (below).
    const found = settleError === undefined && !payerBlocked ? await matchPayment(tx, f, category, first.subscriberOfSender, first.clientOfSender) : null;
    if (found && 'subscriberId' in found.payee && found.payer && (await waitsForAge(tx, found.payer.phone, buyer))) {
      ageHeld = { phone: found.payer.phone, graceHours: await getSetting(tx, 'age_declaration_grace_hours') };
    }
    const match = ageHeld ? null : found;
    if (match) {
      // A run of the payer's M-Pesa Ratiba standing order buys that order's package (decision 042).
      const run =
        'subscriberId' in match.payee
          ? await standingOrderRun(
              tx,
              { subscriberId: match.payee.subscriberId, account: normaliseAccount(f.billRefNumber), amountCents: f.amountCents! },
              match.payee.subscriberId === first.subscriberOfSender?.id ? first.orderOfSender : undefined,
            )
          : null;
      const claim = (paymentId: number): Claim => ({
        ...automaticClaim(paymentId, f, match, requestId, category),
        ...(first.saleOfSender ? { looked: first.saleOfSender } : {}),
        ...(run ? { source: 'ratiba' as const, requested: { packageId: run.packageId } } : {}),
      });
      const storeClaimed = async (sp: Queryable) => {
        // The row, stored claimed, and its credit to the payee: one statement.
        const [row] = await postWithLedgerEntry<{ id: number | string }>(
          sp,
          claimsQ.paymentInsertOnce(sp, { ...values, ...claimsQ.claimedColumns({ payee: match.payee, matchedBy: match.matchedBy, actorUserId: null }) }),
          'paymentId',
          { holder: match.payee, amountCents: f.amountCents!, kind: 'payment', createdBy: null },
        );
        if (!row) return null;
        const paymentId = Number(row.id);
        const outcome = await applyClaim(sp, { ...claim(paymentId), credited: true });
        if (run) await run.recorded(sp, paymentId);
        return { paymentId, outcome };
      };
      const claimedIn = async (): Promise<Stored | undefined> => {
        // With the whole transaction at stake, a failure of the rules rolls it back and the caller
        // stores the payment unclaimed in a new one (no savepoint: two round trips fewer per payment).
        if (rules === 'whole-transaction') return claimedAnswer(await storeClaimed(tx));
        try {
          return claimedAnswer(await tx.transaction(storeClaimed));
        } catch (error) {
          // The rules failed unexpectedly: the payment is stored unclaimed below, for a person to look at.
          settleError = error;
          return undefined;
        }
      };
      const claimedAnswer = (claimed: { paymentId: number; outcome: SettlementOutcome } | null): Stored =>
        claimed
          ? { stored: true, paymentId: claimed.paymentId, status: 'claimed', outcome: claimed.outcome, notice: notice(claimed.paymentId, 'claimed') }
          : repeat;
      const answered = await claimedIn();
      if (answered) return answered;
    }
  }
  // A payment its rules could not settle is kept unclaimed with the reason, for an admin (decision 054).
  const unsettled = settleError !== undefined ? notSettledWarning(settleError) : payerBlocked ? refusedPaymentWarning(payerBlocked) : ageHeld ? ageHoldWarning(ageHeld.graceHours) : null;
  const row = await claimsQ.insertPaymentOnce(tx, unsettled ? { ...values, warning: unsettled } : values);
  if (!row) return repeat;
  if (rejectReason) return { stored: true, paymentId: row.id, status: 'rejected', outcome: null, notice: null };
  if (warning) {
    // Money M-Pesa received, but not as the business expects: counted, shown, never matched
    // automatically; an admin claims it after a look.
    return { stored: true, paymentId: row.id, status: 'unclaimed', outcome: null, warning, notice: notice(row.id, 'unclaimed') };
  }
  if (settleError !== undefined) {
    return { stored: true, paymentId: row.id, status: 'unclaimed', outcome: null, settleError, warning: unsettled, notice: notice(row.id, 'unclaimed') };
  }
  if (payerBlocked) {
    const smsQueued = await keepRefusedPayment(tx, {
      paymentId: row.id,
      phone: f.senderPhone,
      phoneHash: senderPhoneHash(f) ?? '',
      block: payerBlocked,
      amountCents: f.amountCents!,
      receipt: f.transId,
    });
    return {
      stored: true,
      paymentId: row.id,
      status: 'unclaimed',
      outcome: smsQueued ? { bonusPaidCents: 0, subscriptionId: null, activatedSms: null, smsQueued: true } : null,
      warning: unsettled,
      notice: notice(row.id, 'unclaimed'),
    };
  }
  // A new tips payer whose phone never declared is not subscribed until it replies 18 (decision 066).
  const newPayer = ageHeld || payerErased === true ? null : await newTipsPayer(tx, f, category);
  if (newPayer && (await waitsForAge(tx, newPayer.phone, buyer))) {
    ageHeld = { phone: newPayer.phone, graceHours: await getSetting(tx, 'age_declaration_grace_hours') };
    await claimsQ.setPaymentWarning(tx, row.id, ageHoldWarning(ageHeld.graceHours));
  }
  if (ageHeld) {
    const { phone, graceHours } = ageHeld;
    const held = unsettled ?? ageHoldWarning(graceHours);
    const smsQueued = await holdForAgeReply(tx, { paymentId: row.id, phone, amountCents: f.amountCents!, receipt: f.transId, graceHours });
    return {
      stored: true,
      paymentId: row.id,
      status: 'unclaimed',
      outcome: smsQueued ? { bonusPaidCents: 0, subscriptionId: null, activatedSms: null, smsQueued: true } : null,
      warning: held,
      notice: notice(row.id, 'unclaimed'),
    };
  }
  const settled = await settleNewPayer(tx, row.id, f, category, requestId, payerErased, rules);
  return {
    stored: true,
    paymentId: row.id,
    status: settled.status,
    outcome: settled.outcome,
    settleError: settled.error,
    notice: notice(row.id, settled.status),
  };
}

/**
 * The confirmation webhook's work: one transaction; once it has committed, the admins' screens
 * are told, and the SMS and invoice queues are nudged (neither awaited: `Receipt.queued`, decisions
 * 052 and 053). The notice is sent after the commit, not in the transaction, because PostgreSQL
 * serialises the commits of every transaction that NOTIFYs (one lock, held through the commit's
 * flush to disk), which capped ingestion at one confirmation per disk flush (decision 044). A
 * crash between the two loses only the notice; the live screens refetch when their stream
 * reconnects.
 */
export async function receiveC2bConfirmation(deps: AppDeps, raw: unknown, requestId: string | null): Promise<Receipt> {
  const shortCodes = ourShortcodes(deps.config.mpesa);
  // A transaction that loses a race with another payment's (a deadlock, a serialization failure:
  // decision 054) is run again whole, a few times, after a short random wait.
  const stored = (rules: Rules) =>
    retryingLostRaces(() => withPreparedStatements(() => deps.db.transaction((tx) => storeAndSettle(tx, shortCodes, raw, requestId, 'c2b', rules))));
  // The rules run in the whole transaction; if they fail unexpectedly (or lose every race), nothing
  // of it is kept and the payment is stored again, unclaimed, with the reason, for a person to look
  // at. A second failure (the database is gone) answers an error, and Daraja sends the confirmation again.
  const { notice, ...result } = await stored('whole-transaction').catch((failed: unknown) => stored({ failed }));
  // Daraja's answer waits neither for the admins' notice nor for the job nudges (decisions 052 and
  // 053): the payment is committed; a notice lost with the process is refetched by the live screens
  // when their stream reconnects, and a nudge's work is left to its queue's cron (every minute).
  // Their failure is logged.
  const queued = Promise.all([notice ? announceCommittedPayment(deps.db, notice) : null, afterCommit(deps, result.outcome)]).then(
    () => null,
    (error: unknown) => error,
  );
  return { ...result, queued };
}

export type ValidationAnswer = { ResultCode: string; ResultDesc: string };

/**
 * C2B validation (Daraja asks before it takes the money). A payment to a shortcode that is neither
 * the store number nor the till is always refused (C2B00015): the business does not take money it
 * would then have to set aside. With the `mpesa_validate_account` setting on, an amount outside
 * Daraja's limits (C2B00013) or an account number that names nothing (C2B00012) is refused too.
 */
export async function validateC2b(deps: AppDeps, raw: unknown, strict: boolean): Promise<ValidationAnswer> {
  const accepted = { ResultCode: '0', ResultDesc: 'Accepted' };
  const { fields, rejectReason, warning } = parseC2b(raw, ourShortcodes(deps.config.mpesa));
  if (warning) return { ResultCode: 'C2B00015', ResultDesc: 'Rejected' };
  if (!strict) return accepted;
  if (rejectReason?.startsWith('TransAmount')) return { ResultCode: 'C2B00013', ResultDesc: 'Rejected' };
  if (!(await accountLooksValid(deps.db, fields.billRefNumber))) return { ResultCode: 'C2B00012', ResultDesc: 'Rejected' };
  return accepted;
}
