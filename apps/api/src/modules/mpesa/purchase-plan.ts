/**
 * The C2B purchase's plan (decision 092): what its first statement reads and what its last statement
 * writes, as typed records, so that a reader sees the purchase's round trips in one place.
 *
 * A tips package bought from a subscriber's phone, top to bottom (`receiveC2bConfirmation` and
 * `storeAndSettle` in c2b-confirmation.ts; 10 statements counted by bench/ingest-statements.ts,
 * docs/performance.md):
 *
 *   1. `begin` (the whole transaction, under prepared statements; a lost race runs it again whole)
 *   2. the first read, `readFirst` → `FirstRead`: everything the rules need that one statement can fetch
 *   3. the 18+ gate (`waitsForAge`, when the buyer is not the phone the first read guessed, and its setting)
 *   4. the payment stored claimed with its credit (`postWithLedgerEntry` over `paymentInsertOnce`)
 *   5. the subscription stacked and its debit (`activateSubscription`, told `PURCHASE_WRITES`)
 *   6. the last statement, `writeLastStatement` ← `LastStatement`: the sale's invoice, the audit rows,
 *      the receipt SMS and today's tip, in one statement
 *   7. `commit`, then, not awaited by Daraja's answer, the job nudge and the admins' shared notice
 *
 * A deposit kept as credit and a payment nobody matches take the same first read and stop earlier
 * (14 and 5 statements).
 */
import type { Queryable } from '../../db/client.ts';
import { typedObjectOf } from '../../db/columns.ts';
import type { SaleBlock } from '../../db/schema/index.ts';
import { auditAll, auditRider, type AuditEntry } from '../audit/service.ts';
import { standingOrderColumn, type StandingOrderPaying } from '../auto-renew/service.ts';
import { undeclaredPhoneSql } from '../compliance/service.ts';
import { smsInOrderRider, type RidingSms } from '../sms/service.ts';
import type { SaleWrites } from '../subscriptions/service.ts';
import { queueSaleInvoice, type Sale } from '../tax/service.ts';
import type { C2bFields } from './c2b-payload.ts';
import {
  normaliseAccount,
  paidByErasedPersonSql,
  payerBlockedSql,
  phoneInside,
  senderPhoneHash,
  type categoryNamedBy,
  type KnownSubscriber,
} from './matching.ts';
import * as claimsQ from './queries/claims.ts';
import * as firstReadQ from './queries/first-read.ts';
import { saleLookupFor, type Settlement } from './settle.ts';

/** The tips category an account number names (`categoryNamedBy`), null when none. */
export type NamedCategory = Awaited<ReturnType<typeof categoryNamedBy>>;

/** A phone and whether a tips sale to it waits for its 18+ declaration. */
export type AgeChecked = { phone: string; undeclared: boolean };

/** What the purchase's first statement fetched (`readFirst`). */
export interface FirstRead {
  /** The receipt-less STK payment this confirmation's receipt was attached to (the money is not counted twice), or null. */
  adopted: number | null;
  /** The tips category the account names, for the match and for a new payer. */
  category: NamedCategory;
  /** The one subscriber with the sender's phone (null: none or two; undefined: no sender's hash). */
  subscriberOfSender: KnownSubscriber | null | undefined;
  /** The one live client with the sender's phone (null: none or two; undefined: no sender's hash). */
  clientOfSender: number | null | undefined;
  /** Whether the payer is an erased person (`paidByErasedPerson`). */
  payerErased: boolean | undefined;
  /** Why no sale may be made to the payer (self-excluded, under 18), or null (decision 059). */
  payerBlocked: SaleBlock | null;
  /** The phone the payment most likely buys for, and whether it must first declare it is 18 or older (decision 066). */
  buyer: AgeChecked | null;
  /** The sender's subscriber's standing order paying this account and amount, when there is one subscriber (auto-renew's column). */
  orderOfSender: { order: StandingOrderPaying | null } | undefined;
  /** What the payment may buy from the sender's one subscriber (`Settlement.looked`, the settlement's column). */
  saleOfSender: Settlement['looked'];
}

/**
 * The phone a tips payment most likely buys for, as the match and a new payer read it first: one
 * written in the account ("D2 0712345678"), else the sender's plain phone (a phone Daraja hides
 * cannot be asked). Its declaration is read in the first read.
 */
function likelyBuyerPhone(f: C2bFields): string | null {
  return phoneInside(normaliseAccount(f.billRefNumber)) ?? (f.msisdnKind === 'plain' ? f.senderPhone : null);
}

/**
 * The first read, one statement: a receipt-less STK payment of the same phone and amount to adopt
 * (an STK payment confirmed only by an STK query has no receipt yet; when the same money arrives
 * with its receipt, the receipt is attached to it, `adopted`, one statement more only then); the
 * category the account names; the live clients and subscribers of the sender's phone; whether a
 * phone it names is an erased person's, whether the payer may be sold to, and whether the buyer
 * declared 18+; and, per subscriber of the sender's phone, the typed columns their modules build:
 * the standing order paying this (auto-renew) and what the payment may buy (settlement).
 */
export async function readFirst(tx: Queryable, f: C2bFields): Promise<FirstRead> {
  const phoneHash = senderPhoneHash(f);
  const waiting = phoneHash && f.amountCents !== null && f.transId ? { phoneHash, amountCents: f.amountCents } : null;
  const paying = { account: normaliseAccount(f.billRefNumber), amountCents: f.amountCents! };
  const buyerPhone = likelyBuyerPhone(f);
  const found = await firstReadQ.receiptlessStkPaymentAndCategory(
    tx,
    waiting,
    paying.account,
    phoneHash,
    (id, namedCategoryId) => typedObjectOf({ order: standingOrderColumn(id, paying), sale: saleLookupFor(id, namedCategoryId, paying.amountCents) }),
    paidByErasedPersonSql(f),
    // The sale check rides in the same read: no statement more per payment (decision 059).
    payerBlockedSql(f),
    // So does the 18+ declaration of the phone it buys for (decision 066).
    buyerPhone ? undeclaredPhoneSql(buyerPhone) : undefined,
  );
  const adopted = found.waitingId !== null ? await claimsQ.setReceiptIfNone(tx, found.waitingId, f.transId!) : null;
  // The one subscriber with the sender's phone decides (two decide nothing): for the match, its
  // standing order paying this account and amount (a Ratiba run, decision 042), and what it may buy.
  const ofSender = found.subscribersOfSender;
  const only = ofSender?.length === 1 ? ofSender[0]! : null;
  return {
    adopted,
    category: found.category,
    subscriberOfSender: ofSender === undefined ? undefined : only && { id: only.id, name: only.name, phone: only.phone },
    clientOfSender: found.clientOfSender,
    payerErased: found.payerErased,
    payerBlocked: found.payerBlocked,
    buyer: buyerPhone ? { phone: buyerPhone, undeclared: found.payerUndeclared } : null,
    orderOfSender: only ? { order: only.also.order } : undefined,
    saleOfSender: only ? { subscriberId: only.id, betCategoryId: found.category?.id ?? null, amountCents: paying.amountCents, found: only.also.sale } : undefined,
  };
}

/**
 * How the purchase's settlement writes a sale: its invoice and the subscription's audit row are left
 * to the last statement (`LastStatement`), not written when the subscription is made. (With
 * `receipt_sms_invoice_line` on, the settlement numbers the invoice before the receipt, which
 * carries the number: `Settlement.writes`.)
 */
export const PURCHASE_WRITES: SaleWrites = { invoice: 'last', audit: 'last' };

/** What the purchase's last statement writes (`writeLastStatement`). */
export interface LastStatement {
  /** The sale to invoice, numbered on the branch's counter (decision 035), or null when nothing was sold (or it was invoiced already). */
  invoice: Sale | null;
  /** The audit rows of the claim and of what it activated. */
  audits: AuditEntry[];
  /** Messages that leave in this order (the receipt, then today's tip); written only with an invoice. */
  sms: RidingSms[];
}

/**
 * The purchase's last statement: with a sale, its invoice, with the audit rows and the messages at
 * the head of its WITH list (riders, src/db/riders.ts): the invoice takes the branch's counter,
 * held from here to the commit (decision 044), and the rest rides along (one round trip). Without a
 * sale, the audit rows alone.
 */
export async function writeLastStatement(sp: Queryable, last: LastStatement): Promise<void> {
  if (!last.invoice) return auditAll(sp, last.audits);
  const audits = auditRider(sp, last.audits);
  const sms = smsInOrderRider(last.sms);
  await queueSaleInvoice(sp, last.invoice, [...(audits ? [audits] : []), ...(sms ? [sms] : [])]);
}
