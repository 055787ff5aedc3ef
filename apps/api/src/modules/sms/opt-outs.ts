import type { OptOutSource } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import * as q from './queries/opt-outs.ts';

/**
 * 'all' (STOP: every service and promotional message), one bet category's tips (STOP <code>) or
 * 'promotional' (Do Not Disturb: offers only).
 */
export type OptOutScope = 'all' | 'promotional' | { betCategoryId: number };

const scopeKey = (scope: OptOutScope) => (typeof scope === 'string' ? scope : String(scope.betCategoryId));

export async function isOptedOut(db: Queryable, phone: string, betCategoryId?: number | null, promotional = false): Promise<boolean> {
  return q.phoneOptedOut(db, phone, betCategoryId, promotional);
}

interface Change {
  phone: string;
  source: OptOutSource;
  reason?: string | null;
  actorUserId?: number | null;
}

/** Records an opt-out (once per scope; its history row only when it is new). Returns whether it is new. */
export async function optOut(db: Queryable, c: Change & { scope: OptOutScope }): Promise<boolean> {
  const scope = scopeKey(c.scope);
  const added = await q.insertOptOut(db, {
    phone: c.phone,
    scope,
    betCategoryId: typeof c.scope === 'string' ? null : c.scope.betCategoryId,
    source: c.source,
    createdBy: c.actorUserId ?? null,
  });
  if (!added) return false;
  await q.insertOptOutEvents(db, [{ phone: c.phone, scope, action: 'opt-out', source: c.source, reason: c.reason ?? null, createdBy: c.actorUserId ?? null }]);
  return true;
}

/** Clears every opt-out of the phone (START, or an admin with a reason). Returns the scopes cleared. */
export async function optIn(db: Queryable, c: Change): Promise<string[]> {
  const cleared = await q.deleteOptOuts(db, c.phone);
  await q.insertOptOutEvents(
    db,
    cleared.map((scope) => ({ phone: c.phone, scope, action: 'opt-in', source: c.source, reason: c.reason ?? null, createdBy: c.actorUserId ?? null })),
  );
  return cleared;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** A phone's opt-out state for a person's page: what it holds now and the last 20 changes. */
export async function optOutState(db: Queryable, phone: string) {
  const current = await q.optOutsOf(db, phone);
  const history = await q.optOutHistory(db, phone, 20);
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
