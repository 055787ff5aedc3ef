// What a payment buys: the settlement rules' look-ups.
import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { rows } from '../../../db/rows.ts';
import { DAILY_DAYS_MAX } from '@betdesk/contract';
import { bet4mePlans, betCategories, pricePackages, subscriptions, type PackageBilling, type TipsMedium } from '../../../db/schema/index.ts';
import type { Queryable } from '../../../db/client.ts';
import { jsonValue, type TypedColumn } from '../../../db/columns.ts';

export async function planById(tx: Queryable, planId: number) {
  const [plan] = await tx.select().from(bet4mePlans).where(eq(bet4mePlans.id, planId));
  return plan;
}

/** The shortest active Bet4Me plan costing exactly this. */
export async function activePlanPriced(tx: Queryable, priceCents: number) {
  const [plan] = await tx
    .select()
    .from(bet4mePlans)
    .where(and(eq(bet4mePlans.active, true), eq(bet4mePlans.priceCents, priceCents)))
    .orderBy(bet4mePlans.durationDays)
    .limit(1);
  return plan;
}

export async function packageById(tx: Queryable, packageId: number) {
  const [pkg] = await tx.select().from(pricePackages).where(eq(pricePackages.id, packageId));
  return pkg;
}

/** What a tips payment may buy, read in one go (`saleLookupColumn`). */
export interface SaleLookup<A> {
  /** The subscriber's latest tips subscription (its category and medium); null when they never subscribed. */
  latest: { betCategoryId: number; medium: TipsMedium | null } | null;
  /**
   * The packages costing exactly the amount, in the category named, else in the latest one, and the
   * daily ones (decision 095) whose day price the amount is a multiple of (1 to `DAILY_DAYS_MAX` days).
   */
  fits: Omit<typeof pricePackages.$inferSelect, 'trialDays' | 'trialNeedsAutoRenew'>[];
  /** What the columns read with them answered, each read by the module that built it. */
  also: A;
}

/**
 * The tips settlement's look-ups as one JSON column: the subscriber's latest tips subscription (its
 * category and medium) and the packages costing exactly this in the category the account named, else
 * in that latest category. `also`: a column read with them (the receipt's settings, today's tip of
 * the category), given the category the packages are of (an SQL expression). A column of its own so
 * that the C2B confirmation's first read can carry it for the sender's subscriber (one round trip fewer).
 */
export function saleLookupColumn<A>(
  subscriberId: SQL,
  namedCategoryId: SQL,
  priceCents: number,
  also: (category: SQL) => TypedColumn<A>,
): TypedColumn<SaleLookup<A>> {
  const category = sql`coalesce(${namedCategoryId}, latest.bet_category_id)`;
  const alsoColumn = also(category);
  return {
    sql: sql`(select json_build_object(
            'latest_category_id', latest.bet_category_id, 'latest_medium', latest.medium,
            'fits', (select coalesce(json_agg(json_build_object('id', p.id, 'bet_category_id', p.bet_category_id, 'medium', p.medium, 'name', p.name,
                                                                'duration_days', p.duration_days, 'price_cents', p.price_cents, 'billing', p.billing,
                                                                'updated_at', p.updated_at)
                                              order by p.id), '[]'::json)
                       from ${pricePackages} p where p.bet_category_id = ${category}
                        and (p.price_cents = ${priceCents}::bigint
                             or (p.billing = 'daily' and p.price_cents > 0 and ${priceCents}::bigint % p.price_cents = 0
                                 and ${priceCents}::bigint <= p.price_cents * ${DAILY_DAYS_MAX}))),
            'also', ${alsoColumn.sql})
          from (select 1) one
          left join lateral (select bet_category_id, medium from ${subscriptions}
                              where subscriber_id = ${subscriberId} and bet_category_id is not null
                              order by created_at desc, id desc limit 1) latest on true)`,
    read: (value) => readSaleLookup(value, alsoColumn),
  };
}

function readSaleLookup<A>(value: unknown, also: TypedColumn<A>): SaleLookup<A> {
  const read = jsonValue(value) as {
    latest_category_id: number | null;
    latest_medium: TipsMedium | null;
    fits: {
      id: number;
      bet_category_id: number;
      medium: TipsMedium;
      name: string;
      duration_days: number;
      price_cents: number | string;
      billing: PackageBilling;
      updated_at: string;
    }[];
    also: unknown;
  };
  return {
    latest: read.latest_category_id != null ? { betCategoryId: Number(read.latest_category_id), medium: read.latest_medium } : null,
    fits: read.fits.map((p) => ({
      id: Number(p.id),
      betCategoryId: Number(p.bet_category_id),
      medium: p.medium,
      name: p.name,
      durationDays: Number(p.duration_days),
      priceCents: Number(p.price_cents),
      billing: p.billing,
      updatedAt: new Date(p.updated_at),
    })),
    also: also.read(read.also),
  };
}

/** `saleLookupColumn` for one subscriber, read on its own. */
export async function latestSubscriptionAndPackagesPriced<A>(
  tx: Queryable,
  subscriberId: number,
  namedCategoryId: number | null,
  priceCents: number,
  also: (category: SQL) => TypedColumn<A>,
): Promise<SaleLookup<A>> {
  const column = saleLookupColumn(sql`${subscriberId}::integer`, sql`${namedCategoryId}::integer`, priceCents, also);
  const [found] = await rows<{ sale: unknown }>(tx, sql`select ${column.sql} as sale`);
  return column.read(found!.sale);
}

/** What a subscription bought: its amount, days, and the plan or package. */
export async function subscriptionBought(tx: Queryable, subscriptionId: number) {
  const [bought] = await tx
    .select({ amountCents: subscriptions.amountCents, durationDays: subscriptions.durationDays, plan: bet4mePlans.name, pkg: pricePackages.name })
    .from(subscriptions)
    .leftJoin(bet4mePlans, eq(bet4mePlans.id, subscriptions.planId))
    .leftJoin(pricePackages, eq(pricePackages.id, subscriptions.packageId))
    .where(eq(subscriptions.id, subscriptionId));
  return bought;
}

export async function categoryById(db: Queryable, betCategoryId: number) {
  const [category] = await db.select().from(betCategories).where(eq(betCategories.id, betCategoryId));
  return category;
}

/** A category's priced packages as the prices SMS lists them (at most ten). */
export async function pricesOfCategory(db: Queryable, betCategoryId: number) {
  return db
    .select({ medium: pricePackages.medium, days: pricePackages.durationDays, priceCents: pricePackages.priceCents, billing: pricePackages.billing })
    .from(pricePackages)
    .where(and(eq(pricePackages.betCategoryId, betCategoryId), gt(pricePackages.priceCents, 0)))
    .orderBy(asc(pricePackages.medium), asc(pricePackages.durationDays))
    .limit(10);
}

/** A category's priced packages, SMS before web, then by id (what a paybill promo code may buy, decision 086). */
export async function packagesOfCategory(tx: Queryable, betCategoryId: number) {
  return tx
    .select()
    .from(pricePackages)
    .where(and(eq(pricePackages.betCategoryId, betCategoryId), gt(pricePackages.priceCents, 0)))
    .orderBy(asc(pricePackages.id));
}
