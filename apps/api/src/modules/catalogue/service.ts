import {
  catalogueTexts,
  centsToKes,
  kesToCents,
  type BetCategoryForm,
  type BetCategoryRow,
  type PlanForm,
  type PlanRow,
  type PostCategoryForm,
  type PostCategoryRow,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/unique.ts';
import type { StaffFormAction } from '../../http/actor.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import * as q from './queries.ts';


export async function catalogue(db: Queryable): Promise<{
  bet_categories: BetCategoryRow[];
  post_categories: PostCategoryRow[];
  plans: PlanRow[];
}> {
  const [bets, posts, plans] = [
    await q.betCategoriesWithPackages(db),
    await q.postCategoriesWithPosts(db),
    await q.plansWithSubscriptions(db),
  ];
  return {
    bet_categories: bets.map((b) => ({
      id: b.id,
      name: b.name,
      code: b.code,
      sms_packages: b.smsPackages,
      web_packages: b.webPackages,
    })),
    post_categories: posts,
    plans: plans.map((p) => ({
      id: p.id,
      name: p.name,
      duration: p.durationDays,
      price: centsToKes(p.priceCents),
      active: p.active,
      subscriptions: p.subscriptions,
    })),
  };
}

/** Runs a save, turning a unique-index race into the same 422 the pre-check gives. */
async function savingUnique<T>(field: string, message: string, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError(field, message);
    throw error;
  }
}

/**
 * Adds a bet category or edits one. The code is what payers type as the M-Pesa account number,
 * so it is unique; changing it is allowed (audited) because old payments keep their category id.
 */
export const storeBetCategory: StaffFormAction<typeof BetCategoryForm> = async (deps, actor, form, requestId) => {
  await savingUnique('code', catalogueTexts.codeTaken, () =>
    deps.db.transaction(async (tx) => {
      const before = form.id === undefined ? null : await q.betCategoryForUpdate(tx, form.id);
      if (form.id !== undefined && !before) throw notFound(catalogueTexts.noBetCategory);
      const holder = await q.betCategoryByCode(tx, form.code);
      if (holder && holder.id !== form.id) throw fieldError('code', catalogueTexts.codeTaken);
      const after = { name: form.name, code: form.code };
      if (before) await q.updateBetCategory(tx, before.id, after);
      const id = before ? before.id : await q.insertBetCategory(tx, after);
      await audit(tx, before ? 'bet-category.update' : 'bet-category.create', id, byStaff(actor, requestId), {
        before: before ? { name: before.name, code: before.code } : null,
        after,
      });
    }),
  );
  return { info: catalogueTexts.betCategorySaved };
};

export const storePostCategory: StaffFormAction<typeof PostCategoryForm> = async (deps, actor, form, requestId) => {
  await savingUnique('name', catalogueTexts.postCategoryTaken, () =>
    deps.db.transaction(async (tx) => {
      const before = form.id === undefined ? null : await q.postCategoryForUpdate(tx, form.id);
      if (form.id !== undefined && !before) throw notFound(catalogueTexts.noPostCategory);
      const holder = await q.postCategoryByName(tx, form.name);
      if (holder && holder.id !== form.id) throw fieldError('name', catalogueTexts.postCategoryTaken);
      if (before) await q.updatePostCategory(tx, before.id, { name: form.name, public: form.public });
      const id = before ? before.id : await q.insertPostCategory(tx, { name: form.name, public: form.public });
      await audit(tx, before ? 'post-category.update' : 'post-category.create', id, byStaff(actor, requestId), {
        before: before ? { name: before.name, public: before.public } : null,
        after: { name: form.name, public: form.public },
      });
    }),
  );
  return { info: catalogueTexts.postCategorySaved };
};

/**
 * Adds a Bet4Me plan or edits one. A plan taken off sale (active false) stays on the
 * subscriptions that bought it; payments and payment requests only match plans on sale.
 */
export const storePlan: StaffFormAction<typeof PlanForm> = async (deps, actor, form, requestId) => {
  const after = {
    name: form.name,
    durationDays: form.duration,
    priceCents: kesToCents(form.price),
    active: form.active,
  };
  await deps.db.transaction(async (tx) => {
    const before = form.id === undefined ? null : await q.planForUpdate(tx, form.id);
    if (form.id !== undefined && !before) throw notFound(catalogueTexts.noPlan);
    if (before) await q.updatePlan(tx, before.id, after);
    const id = before ? before.id : await q.insertPlan(tx, after);
    const shape = (p: typeof after) => ({
      name: p.name,
      duration_days: p.durationDays,
      price_cents: p.priceCents,
      active: p.active,
    });
    await audit(tx, before ? 'plan.update' : 'plan.create', id, byStaff(actor, requestId), { before: before ? shape(before) : null, after: shape(after) });
  });
  return { info: catalogueTexts.planSaved };
};
