import type { Db } from '../../db/client.ts';
import { releaseLease, takeLease } from '../../db/leases.ts';
import { customerDateTime } from '../../customer-texts/format.ts';
import { languageOf, promotionalText, queueSms } from '../sms/service.ts';
import { markExpiredSubscriptionsLapsed, markSubscriptionReminded, subscriptionsDueReminder, type LapseCursor } from './queries.ts';

export const REMINDER_INTENT = 'subscription.reminder';

/** The expiry job's lease (src/db/leases.ts): one process runs it at a time. */
export const EXPIRY_LEASE = 'subscription-expiry';
/** Subscriptions marked lapsed per transaction. */
export const LAPSE_BATCH = 5_000;
/** How long the lease lasts without a renewal; each batch renews it. */
const LEASE_SECONDS = 120;

export interface ExpiryOptions {
  /** Stops between batches (shutdown): what was marked stays marked, the rest waits for the next run. */
  signal?: AbortSignal;
  batchSize?: number;
  /** The lease holder (tests stand in for a second process). */
  holder?: string;
}

export interface ExpiryRun {
  lapsed: number;
  reminded: number;
  /** True when another process holds the lease and this run did nothing. */
  skipped: boolean;
}

/**
 * The expiry job (decision 064). Subscriptions whose expiry has passed are marked lapsed, in batches
 * of `LAPSE_BATCH`, each its own transaction, so that an imported history of millions is caught up
 * once, a batch at a time, and a process stopped midway keeps what it marked; a subscription that
 * expires within a day, and is not followed by a renewal of the same thing nor renewed by an active
 * standing order, gets one reminder SMS (the `subscription_reminder_sms` text in the person's
 * language, with the responsible-gambling lines of decision 061; deduplicated per subscription).
 * One process runs it at a time: another one's run that finds the lease held does nothing. Returns
 * the counts.
 */
export async function runSubscriptionExpiry(db: Db, options: ExpiryOptions = {}): Promise<ExpiryRun> {
  const batchSize = options.batchSize ?? LAPSE_BATCH;
  const holder = options.holder;
  if (!(await takeLease(db, EXPIRY_LEASE, LEASE_SECONDS, holder))) return { lapsed: 0, reminded: 0, skipped: true };
  try {
    return { ...(await expireAndRemind(db, batchSize, options.signal, holder)), skipped: false };
  } finally {
    await releaseLease(db, EXPIRY_LEASE, holder);
  }
}

async function expireAndRemind(db: Db, batchSize: number, signal: AbortSignal | undefined, holder: string | undefined) {
  let lapsed = 0;
  let after: LapseCursor | null = null;
  for (;;) {
    const batch = await markExpiredSubscriptionsLapsed(db, batchSize, after);
    lapsed += batch.marked;
    after = batch.last;
    if (!after || batch.marked < batchSize || signal?.aborted) break;
    // A lease lost (this process stalled past its end and another took it) stops this run.
    if (!(await takeLease(db, EXPIRY_LEASE, LEASE_SECONDS, holder))) return { lapsed, reminded: 0 };
  }
  if (signal?.aborted) return { lapsed, reminded: 0 };

  const reminded = await db.transaction(async (tx) => {
    const due = await subscriptionsDueReminder(tx);
    let queued = 0;
    for (const sub of due) {
      const language = await languageOf(tx, sub.phone);
      const body = await promotionalText(tx, 'subscription_reminder_sms', language, {
        name: sub.name,
        package: sub.package,
        expiry: customerDateTime(sub.expires_at, language),
      });
      const id = await queueSms(tx, {
        intent: REMINDER_INTENT,
        dedupeKey: `${REMINDER_INTENT}:${sub.id}`,
        to: sub.phone,
        body,
        createdBy: null,
        clientId: sub.client_id,
        subscriberId: sub.subscriber_id,
        smsClass: 'service',
      });
      if (id !== null) queued += 1;
      await markSubscriptionReminded(tx, sub.id);
    }
    return queued;
  });
  return { lapsed, reminded };
}
