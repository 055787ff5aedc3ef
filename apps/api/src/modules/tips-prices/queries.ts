import { and, asc, eq, sql } from 'drizzle-orm';
import { betCategories, pricePackages, type PackageBilling, type TipsMedium } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/** A package is on sale when it has a price: a zero price keeps it off the portal and the USSD menu. */
const onSale = sql`${pricePackages.priceCents} > 0`;

/** A package a punter may buy, with its bet category's name and code (the paybill account). */
export interface PackageForSale {
  id: number;
  name: string;
  betCategoryId: number;
  category: string;
  code: string;
  medium: TipsMedium;
  durationDays: number;
  /** A daily package's price is one day's (decision 095). */
  priceCents: number;
  billing: PackageBilling;
}

const forSaleColumns = {
  id: pricePackages.id,
  name: pricePackages.name,
  betCategoryId: pricePackages.betCategoryId,
  category: betCategories.name,
  code: betCategories.code,
  medium: pricePackages.medium,
  durationDays: pricePackages.durationDays,
  priceCents: pricePackages.priceCents,
  billing: pricePackages.billing,
};

/**
 * The packages on sale, of every bet category or of one: by category name, then SMS before web,
 * shortest first (a menu lists a category's packages in that order).
 */
export async function packagesForSale(db: Queryable, betCategoryId?: number): Promise<PackageForSale[]> {
  return db
    .select(forSaleColumns)
    .from(pricePackages)
    .innerJoin(betCategories, eq(betCategories.id, pricePackages.betCategoryId))
    .where(betCategoryId === undefined ? onSale : and(eq(pricePackages.betCategoryId, betCategoryId), onSale))
    .orderBy(asc(betCategories.name), asc(betCategories.id), asc(pricePackages.medium), asc(pricePackages.durationDays), asc(pricePackages.id));
}

/** The package if it is on sale, else null. */
export async function packageForSale(db: Queryable, id: number): Promise<PackageForSale | null> {
  const [found] = await db
    .select(forSaleColumns)
    .from(pricePackages)
    .innerJoin(betCategories, eq(betCategories.id, pricePackages.betCategoryId))
    .where(and(eq(pricePackages.id, id), onSale));
  return found ?? null;
}

/** The bet categories with at least one package on sale, by name. */
export async function categoriesForSale(db: Queryable): Promise<{ id: number; name: string; code: string }[]> {
  return db
    .selectDistinct({ id: betCategories.id, name: betCategories.name, code: betCategories.code })
    .from(betCategories)
    .innerJoin(pricePackages, eq(pricePackages.betCategoryId, betCategories.id))
    .where(onSale)
    .orderBy(asc(betCategories.name), asc(betCategories.id));
}

/** The packages of a medium, by category then duration. */
export async function packagesOf(db: Queryable, medium: TipsMedium) {
  return db
    .select({
      id: pricePackages.id,
      name: pricePackages.name,
      duration: pricePackages.durationDays,
      priceCents: pricePackages.priceCents,
      billing: pricePackages.billing,
    })
    .from(pricePackages)
    .innerJoin(betCategories, eq(betCategories.id, pricePackages.betCategoryId))
    .where(eq(pricePackages.medium, medium))
    .orderBy(asc(betCategories.id), asc(pricePackages.durationDays));
}

/** The package a subscriber may be given by hand: category x medium x duration. */
export async function findPackage(
  db: Queryable,
  key: { betCategoryId: number; medium: TipsMedium; durationDays: number },
): Promise<{ id: number; priceCents: number } | null> {
  const [found] = await db
    .select({ id: pricePackages.id, priceCents: pricePackages.priceCents })
    .from(pricePackages)
    .where(
      and(
        eq(pricePackages.betCategoryId, key.betCategoryId),
        eq(pricePackages.medium, key.medium),
        eq(pricePackages.durationDays, key.durationDays),
      ),
    );
  return found ?? null;
}

/** Every duration some package is sold for, shortest first. */
export async function packageDurations(db: Queryable): Promise<number[]> {
  const found = await db
    .selectDistinct({ days: pricePackages.durationDays })
    .from(pricePackages)
    .orderBy(asc(pricePackages.durationDays));
  return found.map((f) => f.days);
}

/** A package's name, price, billing and length, locked for its update. */
export async function lockPackage(tx: Queryable, id: number) {
  const [before] = await tx
    .select({ name: pricePackages.name, priceCents: pricePackages.priceCents, billing: pricePackages.billing, durationDays: pricePackages.durationDays })
    .from(pricePackages)
    .where(eq(pricePackages.id, id))
    .for('update');
  return before;
}

export async function updatePackage(tx: Queryable, id: number, change: { name: string; priceCents: number; billing: PackageBilling }) {
  await tx
    .update(pricePackages)
    .set({ name: change.name, priceCents: change.priceCents, billing: change.billing, updatedAt: sql`now()` })
    .where(eq(pricePackages.id, id));
}

export async function betCategoryExists(tx: Queryable, id: number): Promise<boolean> {
  const [category] = await tx
    .select({ id: betCategories.id })
    .from(betCategories)
    .where(eq(betCategories.id, id));
  return category !== undefined;
}

export async function insertPackage(tx: Queryable, pkg: typeof pricePackages.$inferInsert): Promise<number> {
  const [created] = await tx.insert(pricePackages).values(pkg).returning({ id: pricePackages.id });
  return created!.id;
}

/** Every package's free trial (decision 089), by id. */
export async function packageTrials(db: Queryable) {
  return db
    .select({ id: pricePackages.id, trialDays: pricePackages.trialDays, trialNeedsAutoRenew: pricePackages.trialNeedsAutoRenew })
    .from(pricePackages)
    .orderBy(asc(pricePackages.id));
}

/** A package's trial settings and what they depend on (its length and price), optionally locked. */
export async function packageTrial(db: Queryable, id: number, lock = false) {
  const query = db
    .select({
      trialDays: pricePackages.trialDays,
      trialNeedsAutoRenew: pricePackages.trialNeedsAutoRenew,
      durationDays: pricePackages.durationDays,
      priceCents: pricePackages.priceCents,
    })
    .from(pricePackages)
    .where(eq(pricePackages.id, id));
  const [found] = lock ? await query.for('update') : await query;
  return found ?? null;
}

export async function setPackageTrial(tx: Queryable, id: number, trial: { trialDays: number; trialNeedsAutoRenew: boolean }) {
  await tx.update(pricePackages).set({ ...trial, updatedAt: sql`now()` }).where(eq(pricePackages.id, id));
}
