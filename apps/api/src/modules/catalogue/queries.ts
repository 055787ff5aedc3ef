import { asc, eq, sql } from 'drizzle-orm';
import { bet4mePlans, betCategories, postCategories, pricePackages, subscriptions, tipsPosts } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/** Bet categories with how many packages each sells by SMS and on the web. */
export async function betCategoriesWithPackages(db: Queryable) {
  return db
    .select({
      id: betCategories.id,
      name: betCategories.name,
      code: betCategories.code,
      smsPackages: sql<number>`count(${pricePackages.id}) filter (where ${pricePackages.medium} = 'sms')`.mapWith(Number),
      webPackages: sql<number>`count(${pricePackages.id}) filter (where ${pricePackages.medium} = 'web')`.mapWith(Number),
    })
    .from(betCategories)
    .leftJoin(pricePackages, eq(pricePackages.betCategoryId, betCategories.id))
    .groupBy(betCategories.id)
    .orderBy(asc(betCategories.id));
}

export async function postCategoriesWithPosts(db: Queryable) {
  return db
    .select({
      id: postCategories.id,
      name: postCategories.name,
      public: postCategories.public,
      posts: sql<number>`count(${tipsPosts.id})`.mapWith(Number),
    })
    .from(postCategories)
    .leftJoin(tipsPosts, eq(tipsPosts.postCategoryId, postCategories.id))
    .groupBy(postCategories.id)
    .orderBy(asc(postCategories.name));
}

export async function plansWithSubscriptions(db: Queryable) {
  return db
    .select({
      id: bet4mePlans.id,
      name: bet4mePlans.name,
      durationDays: bet4mePlans.durationDays,
      priceCents: bet4mePlans.priceCents,
      active: bet4mePlans.active,
      subscriptions: sql<number>`count(${subscriptions.id})`.mapWith(Number),
    })
    .from(bet4mePlans)
    .leftJoin(subscriptions, eq(subscriptions.planId, bet4mePlans.id))
    .groupBy(bet4mePlans.id)
    .orderBy(asc(bet4mePlans.durationDays), asc(bet4mePlans.id));
}

export async function betCategoryForUpdate(db: Queryable, id: number) {
  const [found] = await db.select().from(betCategories).where(eq(betCategories.id, id)).for('update');
  return found ?? null;
}

export async function betCategoryByCode(db: Queryable, code: string) {
  const [found] = await db.select({ id: betCategories.id }).from(betCategories).where(eq(betCategories.code, code));
  return found ?? null;
}

export async function postCategoryForUpdate(db: Queryable, id: number) {
  const [found] = await db.select().from(postCategories).where(eq(postCategories.id, id)).for('update');
  return found ?? null;
}

export async function postCategoryByName(db: Queryable, name: string) {
  const [found] = await db
    .select({ id: postCategories.id })
    .from(postCategories)
    .where(sql`lower(${postCategories.name}) = lower(${name})`);
  return found ?? null;
}

export async function planForUpdate(db: Queryable, id: number) {
  const [found] = await db.select().from(bet4mePlans).where(eq(bet4mePlans.id, id)).for('update');
  return found ?? null;
}

type BetCategoryFields = { name: string; code: string };
type PostCategoryFields = { name: string; public: boolean };
type PlanFields = { name: string; durationDays: number; priceCents: number; active: boolean };

export async function updateBetCategory(tx: Queryable, id: number, fields: BetCategoryFields) {
  await tx.update(betCategories).set(fields).where(eq(betCategories.id, id));
}

export async function insertBetCategory(tx: Queryable, fields: BetCategoryFields): Promise<number> {
  const [created] = await tx.insert(betCategories).values(fields).returning({ id: betCategories.id });
  return created!.id;
}

export async function updatePostCategory(tx: Queryable, id: number, fields: PostCategoryFields) {
  await tx.update(postCategories).set(fields).where(eq(postCategories.id, id));
}

export async function insertPostCategory(tx: Queryable, fields: PostCategoryFields): Promise<number> {
  const [created] = await tx.insert(postCategories).values(fields).returning({ id: postCategories.id });
  return created!.id;
}

export async function updatePlan(tx: Queryable, id: number, fields: PlanFields) {
  await tx.update(bet4mePlans).set(fields).where(eq(bet4mePlans.id, id));
}

export async function insertPlan(tx: Queryable, fields: PlanFields): Promise<number> {
  const [created] = await tx.insert(bet4mePlans).values(fields).returning({ id: bet4mePlans.id });
  return created!.id;
}
