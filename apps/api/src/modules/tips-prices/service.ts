import { and, asc, eq, sql } from 'drizzle-orm';
import {
  catalogueTexts,
  centsToKes,
  kesToCents,
  successTexts,
  type PackageForm,
  type PriceForm,
  type PricePackage,
} from '@betdesk/contract';
import type { z } from 'zod';
import { betCategories, pricePackages, type TipsMedium } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/unique.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { fieldError, invalid, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';

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
  priceCents: number;
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

export async function packagesOf(db: Queryable, medium: TipsMedium): Promise<PricePackage[]> {
  const found = await db
    .select({
      id: pricePackages.id,
      name: pricePackages.name,
      duration: pricePackages.durationDays,
      priceCents: pricePackages.priceCents,
    })
    .from(pricePackages)
    .innerJoin(betCategories, eq(betCategories.id, pricePackages.betCategoryId))
    .where(eq(pricePackages.medium, medium))
    .orderBy(asc(betCategories.id), asc(pricePackages.durationDays));
  return found.map((p) => ({ id: p.id, name: p.name, duration: p.duration, price: centsToKes(p.priceCents) }));
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

/** Renames a package or changes its price; audited with before and after. */
export async function updatePackage(
  deps: AppDeps,
  actor: Actor,
  form: z.output<typeof PriceForm>,
  requestId: string,
): Promise<{ info: string }> {
  const priceCents = kesToCents(form.price);
  await deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: pricePackages.name, priceCents: pricePackages.priceCents })
      .from(pricePackages)
      .where(eq(pricePackages.id, form.bet_category_price_id))
      .for('update');
    if (!before) throw notFound('This price package does not exist.');
    await tx
      .update(pricePackages)
      .set({ name: form.name, priceCents, updatedAt: sql`now()` })
      .where(eq(pricePackages.id, form.bet_category_price_id));
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'price-package.update',
      entity: 'price_package',
      entityId: form.bet_category_price_id,
      before: { name: before.name, price_cents: before.priceCents },
      after: { name: form.name, price_cents: priceCents },
      requestId,
    });
  });
  return { info: successTexts.priceSaved };
}

/**
 * Adds a package: one per bet category, medium and duration (a 422 naming those fields
 * otherwise), so a payment of its price for the category's code activates it.
 */
export async function addPackage(
  deps: AppDeps,
  actor: Actor,
  form: z.output<typeof PackageForm>,
  requestId: string,
): Promise<{ info: string }> {
  const key = { betCategoryId: form.bet_category_id, medium: form.medium, durationDays: form.duration };
  const taken = () =>
    invalid(
      {
        bet_category_id: [catalogueTexts.packageTaken],
        medium: [catalogueTexts.packageTaken],
        duration: [catalogueTexts.packageTaken],
      },
      catalogueTexts.packageTaken,
    );
  const after = { ...key, name: form.name, priceCents: kesToCents(form.price) };
  try {
    await deps.db.transaction(async (tx) => {
      const [category] = await tx
        .select({ id: betCategories.id })
        .from(betCategories)
        .where(eq(betCategories.id, form.bet_category_id));
      if (!category) throw fieldError('bet_category_id', catalogueTexts.noBetCategory);
      if (await findPackage(tx, key)) throw taken();
      const [created] = await tx.insert(pricePackages).values(after).returning({ id: pricePackages.id });
      await audit(tx, {
        actorUserId: actor.userId,
        action: 'price-package.create',
        entity: 'price_package',
        entityId: created!.id,
        before: null,
        after: {
          bet_category_id: after.betCategoryId,
          medium: after.medium,
          duration_days: after.durationDays,
          name: after.name,
          price_cents: after.priceCents,
        },
        requestId,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  return { info: catalogueTexts.packageAdded };
}
