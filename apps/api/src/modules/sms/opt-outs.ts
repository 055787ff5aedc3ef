import { and, desc, eq, sql } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import { betCategories, smsOptOutEvents, smsOptOuts, users, type OptOutSource } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/**
 * 'all' (STOP: every service and promotional message), one bet category's tips (STOP <code>) or
 * 'promotional' (Do Not Disturb: offers only).
 */
export type OptOutScope = 'all' | 'promotional' | { betCategoryId: number };

const scopeKey = (scope: OptOutScope) => (typeof scope === 'string' ? scope : String(scope.betCategoryId));

/**
 * SQL true when the phone expression must not get a message of this class: it opted out of
 * everything, of the given category's tips, or (for a promotional message) of offers. Each test is a
 * primary-key lookup.
 */
export function optedOutSql(phone: ReturnType<typeof sql>, betCategoryId?: number | null, promotional = false) {
  const keys = ['all', ...(betCategoryId ? [String(betCategoryId)] : []), ...(promotional ? ['promotional'] : [])];
  const scopes = sql`(${sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  )})`;
  return sql`exists (select 1 from ${smsOptOuts} o where o.phone = ${phone} and o.scope in ${scopes})`;
}

export async function isOptedOut(db: Queryable, phone: string, betCategoryId?: number | null, promotional = false): Promise<boolean> {
  const [row] = await rows<{ out: boolean }>(db, sql`select ${optedOutSql(sql`${phone}`, betCategoryId, promotional)} as out`);
  return row?.out === true;
}

interface Change {
  phone: string;
  source: OptOutSource;
  reason?: string | null;
  actorUserId?: number | null;
}

/** Records an opt-out (once per scope; its history row only when it is new). Returns whether it is new. */
export async function optOut(db: Queryable, c: Change & { scope: OptOutScope }): Promise<boolean> {
  const inserted = await db
    .insert(smsOptOuts)
    .values({
      phone: c.phone,
      scope: scopeKey(c.scope),
      betCategoryId: typeof c.scope === 'string' ? null : c.scope.betCategoryId,
      source: c.source,
      createdBy: c.actorUserId ?? null,
    })
    .onConflictDoNothing()
    .returning({ phone: smsOptOuts.phone });
  if (inserted.length === 0) return false;
  await db.insert(smsOptOutEvents).values({
    phone: c.phone,
    scope: scopeKey(c.scope),
    action: 'opt-out',
    source: c.source,
    reason: c.reason ?? null,
    createdBy: c.actorUserId ?? null,
  });
  return true;
}

/** Clears every opt-out of the phone (START, or an admin with a reason). Returns the scopes cleared. */
export async function optIn(db: Queryable, c: Change): Promise<string[]> {
  const cleared = await db.delete(smsOptOuts).where(eq(smsOptOuts.phone, c.phone)).returning({ scope: smsOptOuts.scope });
  for (const { scope } of cleared) {
    await db.insert(smsOptOutEvents).values({
      phone: c.phone,
      scope,
      action: 'opt-in',
      source: c.source,
      reason: c.reason ?? null,
      createdBy: c.actorUserId ?? null,
    });
  }
  return cleared.map((c) => c.scope);
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** A phone's opt-out state for a person's page: what it holds now and the last 20 changes. */
export async function optOutState(db: Queryable, phone: string) {
  const current = await db
    .select({ scope: smsOptOuts.scope, code: betCategories.code, source: smsOptOuts.source, at: smsOptOuts.createdAt })
    .from(smsOptOuts)
    .leftJoin(betCategories, eq(betCategories.id, smsOptOuts.betCategoryId))
    .where(eq(smsOptOuts.phone, phone))
    .orderBy(smsOptOuts.createdAt);
  const history = await db
    .select({
      action: smsOptOutEvents.action,
      scope: smsOptOutEvents.scope,
      source: smsOptOutEvents.source,
      reason: smsOptOutEvents.reason,
      by: users.name,
      at: smsOptOutEvents.createdAt,
    })
    .from(smsOptOutEvents)
    .leftJoin(users, eq(users.id, smsOptOutEvents.createdBy))
    .where(and(eq(smsOptOutEvents.phone, phone)))
    .orderBy(desc(smsOptOutEvents.id))
    .limit(20);
  const codes = new Map(current.map((c) => [c.scope, c.code]));
  const scopeName = (scope: string) => (scope === 'all' || scope === 'promotional' ? scope : (codes.get(scope) ?? `category ${scope}`));
  return {
    opted_out: current.some((c) => c.scope === 'all'),
    offers_stopped: current.some((c) => c.scope === 'promotional'),
    categories: current.filter((c) => c.scope !== 'all' && c.scope !== 'promotional').map((c) => c.code ?? c.scope),
    since: current[0] ? iso(current[0].at) : null,
    history: history.map((h) => ({
      action: h.action,
      scope: scopeName(h.scope),
      source: h.source,
      reason: h.reason,
      by: h.by,
      at: iso(h.at),
    })),
  };
}
