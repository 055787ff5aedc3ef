import { sql } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import { bet4mePlans, clients, pricePackages, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { smsDateTime } from '../../customer-texts/format.ts';
import { customerTextFor } from '../../customer-texts/texts.ts';
import { queueSms } from '../sms/service.ts';

export const REMINDER_INTENT = 'subscription.reminder';

/**
 * The expiry job. Subscriptions whose expiry has passed are marked lapsed; a subscription that
 * expires within a day, and is not followed by a renewal of the same thing, gets one reminder SMS
 * (the `subscription_reminder_sms` text in the person's language; deduplicated per subscription). Returns the counts.
 */
export async function runSubscriptionExpiry(db: Db): Promise<{ lapsed: number; reminded: number }> {
  const lapsed = await db
    .update(subscriptions)
    .set({ lapsedAt: sql`now()` })
    .where(sql`${subscriptions.lapsedAt} is null and ${subscriptions.expiresAt} <= now()`)
    .returning({ id: subscriptions.id });

  const reminded = await db.transaction(async (tx) => {
    const due = await rows<{ id: number; client_id: number | null; subscriber_id: number | null; name: string; phone: string; package: string; expires_at: string }>(
      tx,
      sql`select s.id, s.client_id, s.subscriber_id, coalesce(c.name, t.name) as name, coalesce(c.phone, t.phone) as phone,
                 coalesce(pl.name || ' plan', pp.name, 'tips') as package, s.expires_at
            from ${subscriptions} s
            left join ${clients} c on c.id = s.client_id and c.deleted_at is null
            left join ${tipsSubscribers} t on t.id = s.subscriber_id
            left join ${bet4mePlans} pl on pl.id = s.plan_id
            left join ${pricePackages} pp on pp.id = s.package_id
           where s.lapsed_at is null and s.reminded_at is null
             and s.expires_at > now() and s.expires_at <= now() + interval '1 day'
             and coalesce(c.phone, t.phone) is not null
             and not exists (
               select 1 from ${subscriptions} later
                where later.id <> s.id and later.expires_at > s.expires_at and later.lapsed_at is null
                  and (later.client_id = s.client_id
                       or (later.subscriber_id = s.subscriber_id and later.bet_category_id = s.bet_category_id
                           and later.medium = s.medium)))
           order by s.expires_at
           limit 500
             for update of s skip locked`,
    );
    let queued = 0;
    for (const sub of due) {
      const body = await customerTextFor(tx, sub.phone, 'subscription_reminder_sms', {
        name: sub.name,
        package: sub.package,
        expiry: smsDateTime(new Date(sub.expires_at)),
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
      await tx.update(subscriptions).set({ remindedAt: sql`now()` }).where(sql`${subscriptions.id} = ${sub.id}`);
    }
    return queued;
  });
  return { lapsed: lapsed.length, reminded };
}
