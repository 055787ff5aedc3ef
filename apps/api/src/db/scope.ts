import { sql, type SQL } from 'drizzle-orm';
import type { Role } from '@betdesk/contract';

/**
 * Which clients' rows a request may read: every one for an admin, only those of the clients assigned
 * to the staff user otherwise (docs/decisions/026-staff-scope.md). The one door to client-owned rows:
 * a query of those tables takes a Scope or a ScopedWhere (test/architecture/scope-door.test.ts).
 */
export type Scope = { userId: number } | 'all';

/** Admins see every client; staff only the clients assigned to them. */
export function scopeOf(actor: { role: Role; userId: number }): Scope {
  return actor.role === 'admin' ? 'all' : { userId: actor.userId };
}

/**
 * The alias, in a list's SQL, of a table that carries its client's staff member in `assigned_user_id`
 * (kept by the triggers of migration 0028): c clients, b bets, bo bonuses, p bonus_payments or
 * mpesa_payments, s subscriptions. Each has `(assigned_user_id, sort column, id)` indexes.
 */
export type OwnedAlias = 'c' | 'b' | 'bo' | 'p' | 's';

declare const saidWhose: unique symbol;
/**
 * A list's WHERE clause that has said whose rows it reads. The list queries of client-owned rows take
 * nothing else, so a list cannot be written without a scope (or a client already found in one).
 */
export type ScopedWhere = SQL & { readonly [saidWhose]: true };

const ownerOf = (scope: Scope, alias: OwnedAlias): SQL =>
  scope === 'all' ? sql`true` : sql`${sql.raw(alias)}.assigned_user_id = ${scope.userId}`;

/** The rows of `alias` that the scope sees, and the list's other conditions. */
export function scopedWhere(scope: Scope, alias: OwnedAlias, ...conditions: SQL[]): ScopedWhere {
  return sql.join([ownerOf(scope, alias), ...conditions], sql` and `) as ScopedWhere;
}

/**
 * One client's rows (a client page's sub-list or the client's own figures): the caller has found the
 * client in the actor's scope first (requireClient, 404 otherwise).
 */
export function clientRowsWhere(alias: OwnedAlias, clientId: number, ...conditions: SQL[]): ScopedWhere {
  return sql.join([sql`${sql.raw(alias)}.client_id = ${clientId}`, ...conditions], sql` and `) as ScopedWhere;
}
