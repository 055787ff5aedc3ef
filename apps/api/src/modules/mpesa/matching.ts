import { normaliseKenyanPhone } from '@betdesk/contract';
import type { SQL } from 'drizzle-orm';
import { saleBlockSql } from '../../db/sale-blocks.ts';
import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { anyHashErasedSql, isSomeHashErased } from '../sms/service.ts';
import type { MsisdnKind } from './c2b-payload.ts';
import * as q from './queries/matching.ts';

/** Whose account a payment goes to. */
export type Payee = { clientId: number } | { subscriberId: number };

export interface PaymentMatch {
  payee: Payee;
  /** A subscriber payee's name and phone, as the match read them (the receipt SMS needs them). */
  payer?: { name: string; phone: string };
  /** The tips bet category the account number names, if it names one. */
  betCategoryId: number | null;
  matchedBy: 'account' | 'msisdn';
}

export interface WhoPaid {
  billRefNumber: string | null;
  msisdn: string | null;
  msisdnKind: MsisdnKind;
  senderPhone: string | null;
}

/** The account number as the rules read it: case-insensitive, spaces ignored. */
export function normaliseAccount(ref: string | null): string {
  return (ref ?? '').toUpperCase().replace(/[\s-]+/g, '');
}

/** A Kenyan mobile number written inside an account number ("D20712345678", "254712345678"). */
export function phoneInside(account: string): string | null {
  const found = /(?:\+?254|0)?[17]\d{8}/.exec(account);
  return found ? normaliseKenyanPhone(found[0]) : null;
}

/**
 * The promo code of a paybill account "D2-RADIO10" (decision 086): the category's code, a hyphen, a
 * code of letters and digits (case and spaces ignored). Null for any other account, and for
 * "D2-0712345678" (a phone after the category, as before).
 */
export function promoCodeInAccount(billRefNumber: string | null, category: { code: string } | null | undefined): string | null {
  if (!category) return null;
  const found = /^([^-]+)-([A-Z0-9]{1,40})$/.exec((billRefNumber ?? '').toUpperCase().replace(/\s+/g, ''));
  if (!found || found[1] !== category.code.toUpperCase() || phoneInside(found[2]!)) return null;
  return found[2]!;
}

/** A Bet4Me account number naming a client id: "12", "B4M12" or "BET4ME12". */
export function clientIdInside(account: string): number | null {
  const found = /^(?:B4M|BET4ME)?(\d{1,7})$/.exec(account);
  return found ? Number(found[1]) : null;
}

/** The bet category whose code the account starts with (the longest such code). */
export async function categoryNamedBy(
  db: Queryable,
  account: string,
): Promise<{ id: number; code: string } | null> {
  if (account === '') return null;
  return q.categoryCodeStartingAccount(db, account);
}

/** A subscriber as a match by phone reads them: with the name and phone their receipt needs. */
export type KnownSubscriber = { id: number; name: string; phone: string };

/** The sha256 of the sender's phone: M-Pesa's hashed MSISDN, or the hash of the plain one; null when masked. */
export function senderPhoneHash(who: Pick<WhoPaid, 'msisdn' | 'msisdnKind' | 'senderPhone'>): string | null {
  return who.msisdnKind === 'hashed' ? who.msisdn : who.senderPhone ? sha256Hex(who.senderPhone) : null;
}

/** Exactly one of a client or a subscriber: two different people sharing a number decide nothing. */
function onlyOne(
  clientId: number | null,
  subscriber: KnownSubscriber | null,
): Pick<PaymentMatch, 'payee' | 'payer'> | null {
  if (clientId !== null && subscriber === null) return { payee: { clientId } };
  if (subscriber !== null && clientId === null) return { payee: { subscriberId: subscriber.id }, payer: { name: subscriber.name, phone: subscriber.phone } };
  return null;
}

/**
 * BUSINESS-RULES.md "M-Pesa payments", in order: the account number names a bet category (tips:
 * the subscriber by a phone in it, the sender's phone or the hashed MSISDN), a Bet4Me client (id or
 * phone) or contains a phone; then the sender's phone or hashed MSISDN against stored phones.
 * A masked MSISDN or a name never decides (see suggestions). Null: the payment waits unclaimed.
 */
export async function matchPayment(
  db: Queryable,
  who: WhoPaid,
  /** The category the account names, when the caller looked it up (`categoryNamedBy`). */
  named?: { id: number; code: string } | null,
  /** The one subscriber with the sender's phone (null: none or two), when the caller read it with its first look-ups. */
  subscriberOfSender?: KnownSubscriber | null,
  /** The one live client with the sender's phone (null: none or two), when the caller read it with its first look-ups. */
  clientOfSender?: number | null,
): Promise<PaymentMatch | null> {
  const account = normaliseAccount(who.billRefNumber);
  const senderHash = senderPhoneHash(who);
  const category = named !== undefined ? named : await categoryNamedBy(db, account);
  const subscriber = (s: KnownSubscriber) => ({ payee: { subscriberId: s.id }, payer: { name: s.name, phone: s.phone } });
  const subscriberBySender = (hash: string) => (subscriberOfSender !== undefined ? subscriberOfSender : q.onlySubscriberWith(db, { phoneHash: hash }));

  if (category) {
    const phone = phoneInside(account.slice(category.code.length));
    const byAccount = phone ? await q.onlySubscriberWith(db, { phone }) : null;
    if (byAccount !== null) return { ...subscriber(byAccount), betCategoryId: category.id, matchedBy: 'account' };
    const bySender = senderHash ? await subscriberBySender(senderHash) : null;
    if (bySender !== null) return { ...subscriber(bySender), betCategoryId: category.id, matchedBy: 'msisdn' };
    return null;
  }

  const clientId = clientIdInside(account);
  if (clientId !== null) {
    const found = await q.onlyLiveClientWith(db, { id: clientId });
    if (found !== null) return { payee: { clientId: found }, betCategoryId: null, matchedBy: 'account' };
  }
  const phone = phoneInside(account);
  if (phone) {
    const payee = onlyOne(await q.onlyLiveClientWith(db, { phone }), await q.onlySubscriberWith(db, { phone }));
    if (payee) return { ...payee, betCategoryId: null, matchedBy: 'account' };
  }
  if (senderHash) {
    const payee = onlyOne(
      clientOfSender !== undefined ? clientOfSender : await q.onlyLiveClientWith(db, { phoneHash: senderHash }),
      await subscriberBySender(senderHash),
    );
    if (payee) return { ...payee, betCategoryId: null, matchedBy: 'msisdn' };
  }
  return null;
}

/**
 * A tips payment nobody matched, from a payer whose phone is known: the phone written after the
 * category code ("D2 0712345678"), else a plain MSISDN. A hashed or masked MSISDN alone gives none:
 * such a payment waits for an admin (the payments screen says why).
 */
export async function newTipsPayer(
  db: Queryable,
  who: WhoPaid,
  /** The category the account names, when the caller looked it up (`categoryNamedBy`). */
  named?: { id: number; code: string } | null,
): Promise<{ phone: string; betCategoryId: number } | null> {
  const account = normaliseAccount(who.billRefNumber);
  const category = named !== undefined ? named : await categoryNamedBy(db, account);
  if (!category) return null;
  const phone = phoneInside(account.slice(category.code.length)) ?? (who.msisdnKind === 'plain' ? who.senderPhone : null);
  return phone ? { phone, betCategoryId: category.id } : null;
}

/** Whether the account number could name anything at all (validation refuses only plain nonsense). */
export async function accountLooksValid(db: Queryable, billRefNumber: string | null): Promise<boolean> {
  const account = normaliseAccount(billRefNumber);
  if (account === '') return true;
  if (phoneInside(account) || (await categoryNamedBy(db, account))) return true;
  const clientId = clientIdInside(account);
  if (clientId === null) return false;
  return q.clientExists(db, clientId);
}

/** The warning a payment from an erased person carries (decision 025). */
export const ERASED_PAYER_WARNING = 'Paid by a person whose data was erased: claim it by hand if they want a subscription again';

/**
 * Whether the payer is a person Betdesk erased: their phone (plain, hashed by M-Pesa, or written in
 * the account) is on the erased list, kept only as a SHA-256.
 */
export async function paidByErasedPerson(db: Queryable, who: WhoPaid): Promise<boolean> {
  return isSomeHashErased(db, payerPhoneHashes(who));
}

/** `paidByErasedPerson` as SQL, to read with another look-up (a confirmation's first read). */
export function paidByErasedPersonSql(who: WhoPaid): SQL {
  return anyHashErasedSql(payerPhoneHashes(who));
}

/**
 * SQL text: why no sale may be made to the payer (any phone the payment names is self-excluded or
 * marked under 18: decision 059), or null. Read in the confirmation's first read.
 */
export function payerBlockedSql(who: WhoPaid): SQL {
  return saleBlockSql(payerPhoneHashes(who));
}

/** The hashes of every phone a payment names: the sender's (plain or as M-Pesa hashed it) and one written in the account. */
function payerPhoneHashes(who: WhoPaid): string[] {
  const hashes = new Set<string>();
  if (who.senderPhone) hashes.add(sha256Hex(who.senderPhone));
  if (who.msisdnKind === 'hashed' && who.msisdn) hashes.add(who.msisdn.toLowerCase());
  const inAccount = phoneInside(normaliseAccount(who.billRefNumber));
  if (inAccount) hashes.add(sha256Hex(inAccount));
  return [...hashes];
}
