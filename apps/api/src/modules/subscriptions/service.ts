import { and, eq, isNull, sql } from 'drizzle-orm';
import { subscriptions, SUBSCRIPTION_SOURCES, type TipsMedium } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { audit } from '../audit/service.ts';
import { postLedgerEntry } from '../ledger/service.ts';

export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

export type WhatIsBought =
  | { clientId: number; planId: number }
  | { subscriberId: number; packageId: number; betCategoryId: number; medium: TipsMedium };

export interface Activation {
  what: WhatIsBought;
  durationDays: number;
  amountCents: number;
  source: SubscriptionSource;
  /** The payment that bought it (mpesa/stk): at most one subscription per payment. */
  paymentId?: number | null;
  createdBy?: number | null;
  requestId?: string | null;
}

/**
 * Starts or renews a subscription. Renewal stacks (BUSINESS-RULES.md): the new period starts at the
 * later of now and the current expiry of the same thing (a client's Bet4Me plan; a subscriber's
 * category and medium). When bought from the account (`mpesa`, `stk`, `balance`) the price is
 * debited from the holder's ledger; a `manual` subscription is recorded with the staff user only.
 * Returns the new subscription's id and expiry.
 */
export async function activateSubscription(
  tx: Queryable,
  a: Activation,
): Promise<{ id: number; startsAt: Date; expiresAt: Date }> {
  const sameThing =
    'clientId' in a.what
      ? eq(subscriptions.clientId, a.what.clientId)
      : and(
          eq(subscriptions.subscriberId, a.what.subscriberId),
          eq(subscriptions.betCategoryId, a.what.betCategoryId),
          eq(subscriptions.medium, a.what.medium),
        );
  // Lock the holder's current rows so two activations at once stack instead of overlapping.
  const current = await tx
    .select({ expiresAt: subscriptions.expiresAt })
    .from(subscriptions)
    .where(and(sameThing, isNull(subscriptions.lapsedAt)))
    .orderBy(sql`${subscriptions.expiresAt} desc`)
    .limit(1)
    .for('update');
  const now = new Date();
  const latest = current[0]?.expiresAt;
  const startsAt = latest && latest > now ? latest : now;
  const expiresAt = new Date(startsAt.getTime() + a.durationDays * 86_400_000);

  const [row] = await tx
    .insert(subscriptions)
    .values({
      clientId: 'clientId' in a.what ? a.what.clientId : null,
      planId: 'clientId' in a.what ? a.what.planId : null,
      subscriberId: 'subscriberId' in a.what ? a.what.subscriberId : null,
      packageId: 'subscriberId' in a.what ? a.what.packageId : null,
      betCategoryId: 'subscriberId' in a.what ? a.what.betCategoryId : null,
      medium: 'subscriberId' in a.what ? a.what.medium : null,
      durationDays: a.durationDays,
      amountCents: a.amountCents,
      startsAt,
      expiresAt,
      source: a.source,
      paymentId: a.paymentId ?? null,
      createdBy: a.createdBy ?? null,
    })
    .returning({ id: subscriptions.id });
  const id = row!.id;

  if (a.source !== 'manual') {
    await postLedgerEntry(tx, {
      holder: 'clientId' in a.what ? { clientId: a.what.clientId } : { subscriberId: a.what.subscriberId },
      amountCents: -a.amountCents,
      kind: 'subscription',
      subscriptionId: id,
      paymentId: a.paymentId ?? null,
      createdBy: a.createdBy ?? null,
    });
  }
  await audit(tx, {
    actorUserId: a.createdBy ?? null,
    action: 'subscription.activate',
    entity: 'subscription',
    entityId: id,
    after: { ...a.what, amount_cents: a.amountCents, source: a.source, starts_at: startsAt, expires_at: expiresAt },
    requestId: a.requestId ?? null,
  });
  return { id, startsAt, expiresAt };
}
