import { constants, publicEncrypt, X509Certificate } from 'node:crypto';
import { centsToKes, kesToCents, refundTexts, refusalTexts } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { darajaFor, type DarajaClient, type Initiator } from '../../integrations/mpesa/daraja.ts';
import { refusedForSure } from '../../integrations/mpesa/results.ts';
import { decryptSecret, encryptSecret } from '../../lib/crypto.ts';
import { audit, byStaff } from '../audit/service.ts';
import { lockPaymentForRefund } from '../mpesa/service.ts';
import { getSetting, readPrivateSetting, savePrivateSetting } from '../settings/service.ts';
import { failRefund, markRefundUnknown } from './outcomes.ts';
import * as q from './queries.ts';

/** The initiator as stored: the password sealed like the other secrets, never in a log or an audit row. */
interface StoredInitiator {
  name: string;
  certificate: string;
  password_sealed: string;
}

/**
 * Daraja's SecurityCredential: the initiator password encrypted with the public key of M-Pesa's
 * certificate, RSA PKCS#1 v1.5, base64.
 */
export function securityCredential(certificatePem: string, password: string): string {
  const key = new X509Certificate(certificatePem).publicKey;
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(password, 'utf8')).toString('base64');
}

/** Saves the initiator; the audit row names the certificate by its fingerprint, never the password. */
export async function saveInitiator(
  deps: AppDeps,
  actor: Actor,
  body: { name: string; password: string; certificate: string },
  requestId: string,
): Promise<{ info: string }> {
  let fingerprint: string;
  try {
    fingerprint = new X509Certificate(body.certificate).fingerprint256;
  } catch {
    throw fieldError('certificate', refusalTexts.certificateUnreadable);
  }
  const stored: StoredInitiator = {
    name: body.name,
    certificate: body.certificate,
    password_sealed: encryptSecret(deps.config.secretsKey, body.password),
  };
  await deps.db.transaction(async (tx) => {
    await savePrivateSetting(tx, 'mpesa_initiator', stored, actor.userId);
    await audit(tx, 'refund.initiator-save', 'mpesa_initiator', byStaff(actor, requestId), {
      after: { name: body.name, certificate_sha256: fingerprint, password: 'changed' },
    });
  });
  return { info: refundTexts.initiatorSaved };
}

/** The saved initiator with its SecurityCredential, for every B2C the business sends (refunds, agents' payouts). */
export async function initiatorOf(deps: AppDeps): Promise<Initiator | null> {
  const stored = await readPrivateSetting<StoredInitiator>(deps.db, 'mpesa_initiator');
  if (!stored) return null;
  return { name: stored.name, securityCredential: securityCredential(stored.certificate, decryptSecret(deps.config.secretsKey, stored.password_sealed)) };
}

/** Whether refunds can leave: M-Pesa is configured and an initiator is saved. */
export async function initiatorReady(deps: AppDeps): Promise<boolean> {
  return darajaFor(deps.config.mpesa, deps.config.webhookSecret) !== null && (await readPrivateSetting(deps.db, 'mpesa_initiator')) !== null;
}

interface StoredBalance {
  cents: number;
  at: string;
}

/** Records the utility account's balance a B2C result reported. */
export async function recordUtilityBalance(tx: Queryable, kes: number): Promise<void> {
  await savePrivateSetting(tx, 'mpesa_utility_balance', { cents: kesToCents(kes), at: new Date().toISOString() } satisfies StoredBalance, null);
}

export async function utilityBalance(db: Queryable): Promise<{ amount: number; at: string; low: boolean } | null> {
  const stored = await readPrivateSetting<StoredBalance>(db, 'mpesa_utility_balance');
  if (!stored) return null;
  const lowKes = await getSetting(db, 'mpesa_utility_low_balance_kes');
  return { amount: centsToKes(stored.cents), at: stored.at, low: stored.cents < kesToCents(lowKes) };
}

/** The metric's reading: the last known utility balance in KES (null: never reported). */
export async function utilityBalanceGauge(db: Queryable): Promise<number | null> {
  return (await utilityBalance(db))?.amount ?? null;
}

async function sendOne(deps: AppDeps, daraja: DarajaClient, initiator: Initiator, id: number): Promise<void> {
  // Committed before the request leaves: whatever happens next, this refund is never sent again.
  const refund = await q.claimForSending(deps.db, id);
  if (!refund) return;
  const payment = await paymentReceipt(deps.db, refund.paymentId);
  const request = {
    initiator,
    originatorConversationId: refund.originatorConversationId,
    amountKes: centsToKes(refund.amountCents),
    remarks: `Refund ${refund.id}`,
  };
  try {
    const ack =
      refund.method === 'reversal'
        ? await daraja.reversal({ ...request, transactionId: payment })
        : await daraja.b2cPayment({ ...request, phone: refund.phone! });
    await q.updateRefund(deps.db, id, { conversationId: ack.conversationId || null });
  } catch (error) {
    await deps.db.transaction(async (tx) => {
      if (refusedForSure(error)) await failRefund(tx, id, { resultCode: error.code ?? '', resultDesc: error.message });
      else await markRefundUnknown(tx, id, `No answer from M-Pesa when sending: ${error instanceof Error ? error.message : 'unknown error'}`);
    });
  }
}

async function paymentReceipt(db: Queryable, paymentId: number): Promise<string> {
  const payment = await lockPaymentForRefund(db, paymentId);
  return payment?.transId ?? '';
}

/**
 * What the refund job does with one kind of money out by B2C (refunds here, agents' payouts in their
 * module), each with its own table and ResultURLs: the approved ones sent once, the unanswered ones
 * made unknown, the unknown ones asked about.
 */
export interface B2cQueue {
  /** Which ResultURLs a Transaction Status query names (the refunds' when absent). */
  for?: 'payout';
  approvedUnsent(db: Queryable): Promise<number[]>;
  sendOne(deps: AppDeps, daraja: DarajaClient, initiator: Initiator, id: number): Promise<void>;
  markOverdueUnknown(db: Queryable, waitMinutes: number, reason: string): Promise<unknown>;
  takeDueStatusQueries(db: Queryable, waitMinutes: number): Promise<{ originatorConversationId: string; mpesaReceipt: string | null }[]>;
}

/**
 * The refund job's steps for one queue (approval nudges the job; a cron runs it every minute as a
 * safety net):
 * 1. sends each approved one once (sent_at is taken and committed before the request leaves);
 * 2. one sent longer ago than `refund_result_wait_minutes` with no result becomes unknown;
 * 3. each unknown one is asked about by Transaction Status (repeated after the wait), never resent.
 */
export async function runB2cQueue(deps: AppDeps, queue: B2cQueue): Promise<{ sent: number; queried: number }> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) return { sent: 0, queried: 0 };
  const initiator = await initiatorOf(deps);
  if (!initiator) return { sent: 0, queried: 0 };
  const waitMinutes = await getSetting(deps.db, 'refund_result_wait_minutes');

  const due = await queue.approvedUnsent(deps.db);
  for (const id of due) await queue.sendOne(deps, daraja, initiator, id);

  await queue.markOverdueUnknown(deps.db, waitMinutes, `No result from M-Pesa within ${waitMinutes} minutes: asking M-Pesa how it ended`);
  const unknown = await queue.takeDueStatusQueries(deps.db, waitMinutes);
  for (const one of unknown) {
    try {
      await daraja.transactionStatus({
        ...(queue.for ? { for: queue.for } : {}),
        initiator,
        originatorConversationId: one.originatorConversationId,
        transactionId: one.mpesaReceipt,
      });
    } catch {
      // Asked again after the wait: status_queried_at is already taken.
    }
  }
  return { sent: due.length, queried: unknown.length };
}

/** The refunds' queue: each approved refund sent once by Reversal or B2C. */
export function runRefundSending(deps: AppDeps): Promise<{ sent: number; queried: number }> {
  return runB2cQueue(deps, {
    approvedUnsent: q.approvedUnsent,
    sendOne,
    markOverdueUnknown: q.markOverdueUnknown,
    takeDueStatusQueries: q.takeDueStatusQueries,
  });
}
