import {
  catalogueTexts,
  centsToKes,
  dailyTexts,
  kesToCents,
  successTexts,
  type PackageForm,
  type PriceForm,
  type PricePackage,
  type PackageTrial,
  type TrialForm,
  refusalTexts,
  trialTexts,
} from '@betdesk/contract';
import type { TipsMedium } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/unique.ts';
import type { StaffFormAction } from '../../http/actor.ts';
import { fieldError, invalid, notFound } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import * as q from './queries.ts';

/** A package a punter may buy, with its bet category's name and code (the paybill account). */
export type PackageForSale = q.PackageForSale;

/**
 * The packages on sale, of every bet category or of one: by category name, then SMS before web,
 * shortest first (a menu lists a category's packages in that order).
 */
export function packagesForSale(db: Queryable, betCategoryId?: number): Promise<PackageForSale[]> {
  return q.packagesForSale(db, betCategoryId);
}

/** The package if it is on sale, else null. */
export function packageForSale(db: Queryable, id: number): Promise<PackageForSale | null> {
  return q.packageForSale(db, id);
}

/** The bet categories with at least one package on sale, by name. */
export function categoriesForSale(db: Queryable): Promise<{ id: number; name: string; code: string }[]> {
  return q.categoriesForSale(db);
}

export async function packagesOf(db: Queryable, medium: TipsMedium): Promise<PricePackage[]> {
  const found = await q.packagesOf(db, medium);
  return found.map((p) => ({ id: p.id, name: p.name, duration: p.duration, price: centsToKes(p.priceCents), billing: p.billing }));
}

/** The package a subscriber may be given by hand: category x medium x duration. */
export function findPackage(
  db: Queryable,
  key: { betCategoryId: number; medium: TipsMedium; durationDays: number },
): Promise<{ id: number; priceCents: number } | null> {
  return q.findPackage(db, key);
}

/** Every duration some package is sold for, shortest first. */
export function packageDurations(db: Queryable): Promise<number[]> {
  return q.packageDurations(db);
}

/**
 * Renames a package, changes its price, or sells it by the day (decision 095: then its price is one
 * day's; only a 1-day package may be daily, a 422 on `daily` otherwise). Audited with before and after.
 */
export const updatePackage: StaffFormAction<typeof PriceForm> = async (deps, actor, form, requestId) => {
  const priceCents = kesToCents(form.price);
  const billing = form.daily ? 'daily' : 'period';
  await deps.db.transaction(async (tx) => {
    const before = await q.lockPackage(tx, form.bet_category_price_id);
    if (!before) throw notFound(refusalTexts.packageNotFound);
    if (billing === 'daily' && before.durationDays !== 1) throw fieldError('daily', dailyTexts.oneDayOnly);
    if (billing === 'daily' && priceCents % 100 !== 0) throw fieldError('price', dailyTexts.wholeShillings);
    await q.updatePackage(tx, form.bet_category_price_id, { name: form.name, priceCents, billing });
    await audit(tx, 'price-package.update', form.bet_category_price_id, byStaff(actor, requestId), {
      before: { name: before.name, price_cents: before.priceCents, billing: before.billing },
      after: { name: form.name, price_cents: priceCents, billing },
    });
  });
  return { info: successTexts.priceSaved };
};

/**
 * Adds a package: one per bet category, medium and duration (a 422 naming those fields
 * otherwise), so a payment of its price for the category's code activates it.
 */
export const addPackage: StaffFormAction<typeof PackageForm> = async (deps, actor, form, requestId) => {
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
      if (!(await q.betCategoryExists(tx, form.bet_category_id))) throw fieldError('bet_category_id', catalogueTexts.noBetCategory);
      if (await findPackage(tx, key)) throw taken();
      const created = await q.insertPackage(tx, after);
      await audit(tx, 'price-package.create', created, byStaff(actor, requestId), {
        after: {
          bet_category_id: after.betCategoryId,
          medium: after.medium,
          duration_days: after.durationDays,
          name: after.name,
          price_cents: after.priceCents,
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  return { info: catalogueTexts.packageAdded };
};

/** Whether a package's length fits a Ratiba frequency (daily, weekly, monthly: decision 042). */
const renewable = (durationDays: number) => [1, 7, 30, 31].includes(durationDays);

/** Every package's free trial (decision 089). */
export async function packageTrials(db: Queryable): Promise<{ packages: PackageTrial[] }> {
  const found = await q.packageTrials(db);
  return { packages: found.map((p) => ({ id: p.id, trial_days: p.trialDays, trial_needs_auto_renew: p.trialNeedsAutoRenew })) };
}

/** A package's free trial as the trial rules read it (null: no such package). */
export async function packageTrial(db: Queryable, id: number) {
  return q.packageTrial(db, id);
}

/**
 * Sets a package's free trial (decision 089): so many days (0: none), and whether it is offered
 * only with automatic renewal, which needs a package Ratiba can renew. Audited with before and after.
 */
export const saveTrial: StaffFormAction<typeof TrialForm> = async (deps, actor, form, requestId) => {
  await deps.db.transaction(async (tx) => {
    const before = await q.packageTrial(tx, form.bet_category_price_id, true);
    if (!before) throw notFound(refusalTexts.packageNotFound);
    if (form.trial_needs_auto_renew && !renewable(before.durationDays)) throw fieldError('trial_needs_auto_renew', trialTexts.needsRenewablePackage);
    const after = { trialDays: form.trial_days, trialNeedsAutoRenew: form.trial_needs_auto_renew };
    await q.setPackageTrial(tx, form.bet_category_price_id, after);
    await audit(tx, 'price-package.trial', form.bet_category_price_id, byStaff(actor, requestId), {
      before: { trial_days: before.trialDays, trial_needs_auto_renew: before.trialNeedsAutoRenew },
      after: { trial_days: after.trialDays, trial_needs_auto_renew: after.trialNeedsAutoRenew },
    });
  });
  return { info: trialTexts.saved };
};
