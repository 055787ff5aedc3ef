import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { forgetExcludedPhone } from '../exclusions/service.ts';
import { forgetLanguage } from '../sms/service.ts';
import * as q from './queries.ts';

/**
 * Erasing a person (a request, or the retention job): everything that names them goes, the money
 * records stay as a pseudonymised ledger (amount, date, receipt, what it paid for), so every total,
 * report and reconciliation is unchanged to the cent (decision 025).
 *
 * Personal data removed: names, phones (and their hashes), emails, photos, platform passwords, the
 * text of messages sent and received, the payer fields and raw body of M-Pesa payments (the raw body
 * keeps only its receipt, amount, time and shortcode), portal sessions and codes, opt-outs and consents (replaced by the erased
 * phone's SHA-256, which stops every message to it and flags a later payment from it), and the
 * names and phones inside the audit rows about them.
 */

export interface ErasedCounts {
  subscribers: number;
  clients: number;
  payments: number;
  messages: number;
  received_messages: number;
  payment_requests: number;
}

/** Fields of audit snapshots that name a person. */
const PERSONAL_KEYS = ['name', 'phone', 'email', 'sender_name', 'sender_phone', 'msisdn', 'recipient', 'body', 'text', 'photo'];

/** Erases the person of `phone` in the caller's transaction. `reason` is 'request' or 'retention'. */
export async function erasePhone(tx: Queryable, phone: string, reason: 'request' | 'retention'): Promise<ErasedCounts> {
  const hash = sha256Hex(phone);
  const { subscriberIds, clientIds } = await q.peopleOfPhone(tx, phone);
  const person: q.Person = { phone, hash, subscriberIds, clientIds };

  // Audit rows about them lose the personal fields of their snapshots (who did what, when, stays).
  const paymentIds = await q.paymentIdsOf(tx, person);
  // A portal or USSD purchase is audited against its payment request, with the phone in it.
  const requestIds = await q.paymentRequestIdsOf(tx, person);
  await q.stripAuditSnapshots(
    tx,
    [
      ...subscriberIds.map((id) => ['tips_subscriber', String(id)]),
      ...clientIds.map((id) => ['client', String(id)]),
      ...paymentIds.map((id) => ['mpesa_payment', String(id)]),
      ...requestIds.map((id) => ['stk_request', String(id)]),
      ['sms_opt_out', phone],
    ],
    PERSONAL_KEYS,
  );

  const paymentsErased = await q.erasePayments(tx, paymentIds);
  const requestsErased = await q.erasePaymentRequests(tx, person);
  await q.eraseStandingOrders(tx, person);
  await q.eraseLeverPhones(tx, person);
  await q.failQueuedMessagesTo(tx, person);
  const messagesErased = await q.eraseMessagesTo(tx, person);
  const receivedErased = await q.eraseMessagesFrom(tx, person);
  const subscribersErased = await q.eraseSubscribers(tx, subscriberIds);
  const clientsErased = await q.eraseClients(tx, clientIds);
  await q.dropOptOutsAndConsents(tx, phone);
  await q.dropPortalSignIns(tx, phone);
  await forgetLanguage(tx, phone);
  // A self-exclusion and an under-18 mark outlive the person: kept by the number's hash (decision 059).
  await forgetExcludedPhone(tx, phone);
  await q.rememberErasedPhone(tx, phone, hash, reason);

  return {
    subscribers: subscribersErased,
    clients: clientsErased,
    payments: paymentsErased,
    messages: messagesErased,
    received_messages: receivedErased,
    payment_requests: requestsErased,
  };
}
