import type { Db } from '../../db/client.ts';
import { customerDateTime } from '../../customer-texts/format.ts';
import { customerText } from '../../customer-texts/texts.ts';
import { languageOf, queueSms } from '../sms/service.ts';
import { markExpiredSubscriptionsLapsed, markSubscriptionReminded, subscriptionsDueReminder } from './queries.ts';

export const REMINDER_INTENT = 'subscription.reminder';

/**
 * The expiry job. Subscriptions whose expiry has passed are marked lapsed; a subscription that
 * expires within a day, and is not followed by a renewal of the same thing nor renewed by an active
 * standing order, gets one reminder SMS (the `subscription_reminder_sms` text in the person's
 * language; deduplicated per subscription). Returns the counts.
 */
export async function runSubscriptionExpiry(db: Db): Promise<{ lapsed: number; reminded: number }> {
  const lapsed = await markExpiredSubscriptionsLapsed(db);

  const reminded = await db.transaction(async (tx) => {
    const due = await subscriptionsDueReminder(tx);
    let queued = 0;
    for (const sub of due) {
      const language = await languageOf(tx, sub.phone);
      const body = await customerText(tx, 'subscription_reminder_sms', language, {
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
