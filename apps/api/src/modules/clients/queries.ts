import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { centsToKes, type AssignableClient, type Client, type SortDirection, type SortOf } from '@betdesk/contract';
import { iso, isoOrNull, rows } from '../../db/rows.ts';
import { cappedCount, containing, exactCount, limitSql, nameOrPhoneContains, orderSql, type ListCount, type Page } from '../../db/list.ts';
import {
  bets,
  clientAssignments,
  clientPlatformPasswords,
  clients,
  subscriptions,
} from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { scopedWhere, type Scope, type ScopedWhere } from '../../db/scope.ts';
import { clientAccountBalance, clientBonusFigures } from '../../db/money.ts';

/** A client with a running Bet4Me subscription: its latest expiry (kept on the row by trigger) is ahead. */
export const activeClientSql = (client: SQL): SQL => sql`${client}.running_until > now()`;

export interface ClientFilter {
  scope: Scope;
  search?: string;
  activeOnly?: boolean;
  assignedTo?: number;
  clientId?: number;
}

/**
 * `counting`: the search is written for a capped count. The name's btree indexes (clients_live_name_idx,
 * clients_live_name_running_idx) hold the name, and PostgreSQL, pricing an ilike like an equality,
 * counted a common surname by testing every live client's entry off one of them (196,000 entries to
 * reach 10,001 at reference scale: 170 ms). Testing the phone as well (it holds digits only, so it never
 * matches a name) takes those indexes out of the choice; the trigram indexes give the matches (29 ms).
 */
function clientWhere(f: ClientFilter, counting = false): ScopedWhere {
  const parts: SQL[] = [sql`c.deleted_at is null`];
  if (f.search) {
    const test = nameOrPhoneContains(f.search, sql`c.name`, sql`c.phone`);
    parts.push(counting ? sql`(${test} or c.phone ilike ${containing(f.search)})` : test);
  }
  if (f.activeOnly) parts.push(activeClientSql(sql`c`));
  if (f.assignedTo !== undefined) parts.push(sql`c.assigned_user_id = ${f.assignedTo}`);
  if (f.clientId !== undefined) parts.push(sql`c.id = ${f.clientId}`);
  return scopedWhere(f.scope, 'c', ...parts);
}

type ClientSqlRow = Record<string, unknown>;

function toClient(r: ClientSqlRow): Client {
  return {
    id: Number(r.id),
    name: String(r.name),
    phone: String(r.phone),
    email: (r.email as string | null) ?? null,
    photo: (r.photo as string | null) ?? null,
    joined_on: iso(r.created_at),
    maximum_stake: r.maximum_stake_cents == null ? null : centsToKes(r.maximum_stake_cents),
    total_subscriptions: Number(r.total_subscriptions ?? 0),
    total_bets: Number(r.total_bets ?? 0),
    total_bonuses: Number(r.total_bonuses ?? 0),
    status: r.active ? 1 : 0,
    pending_bonus: centsToKes(r.pending_bonus_cents),
    paid_bonus: centsToKes(r.paid_bonus_cents),
    total_bonus: centsToKes(r.total_bonus_cents),
    account_balance: centsToKes(r.balance_cents),
    last_login: isoOrNull(r.last_login),
  };
}

/** Every figure of the spec's Client for the rows of c, each aggregated per client off its index. */
const clientFigures = sql`
    c.id, c.name, c.phone, c.email, c.photo, c.created_at, c.maximum_stake_cents, c.last_login,
    s.total as total_subscriptions, s.active, b.total as total_bets,
    bo.n as total_bonuses, bo.total as total_bonus_cents, bo.paid as paid_bonus_cents, bo.unpaid as pending_bonus_cents,
    l.balance as balance_cents`;

const figureJoins = sql`
  left join lateral (select count(*) as total, coalesce(bool_or(expires_at > now()), false) as active
                       from ${subscriptions} where client_id = c.id) s on true
  left join lateral (select count(*) as total from ${bets} where client_id = c.id) b on true
  left join lateral (${clientBonusFigures(sql`c.id`)}) bo on true
  left join lateral (${clientAccountBalance(sql`c.id`)}) l on true`;

export const newestClientsFirst = sql`c.created_at desc, c.id desc`;

/**
 * One page of clients with every figure of the spec's Client, in one statement: the page is chosen
 * first off the sort index, then each figure is aggregated for those rows only.
 */
export async function findClients(
  db: Queryable,
  f: ClientFilter,
  page: Page | null,
  order: SQL = newestClientsFirst,
): Promise<Client[]> {
  const found = await rows<ClientSqlRow>(db, sql`
    with picked as (select c.id from ${clients} c where ${clientWhere(f)} order by ${order} ${limitSql(page)})
    select ${clientFigures}
      from picked join ${clients} c on c.id = picked.id
      ${figureJoins}
     order by ${order}`);
  return found.map(toClient);
}

/** Every client of the filter in `order`, for the CSV export's cursor: streams off the sort index. */
export function clientsExportQuery(f: ClientFilter, order: SQL = newestClientsFirst): SQL {
  return sql`select ${clientFigures} from ${clients} c ${figureJoins} where ${clientWhere(f)} order by ${order}`;
}

export { toClient };

export function countClientsCapped(db: Queryable, f: ClientFilter, cap: number): Promise<ListCount> {
  return cappedCount(db, sql`from ${clients} c where ${clientWhere(f, true)}`, cap);
}

export async function countClients(db: Queryable, f: ClientFilter): Promise<number> {
  return exactCount(db, sql`from ${clients} c where ${clientWhere(f)}`);
}

/**
 * Live clients with a running Bet4Me subscription, in scope: a range of clients_live_running_idx
 * (clients_owner_running_idx for a staff member), read off the index alone.
 */
export async function countActiveClients(db: Queryable, scope: Scope): Promise<number> {
  return exactCount(db, sql`from ${clients} c where ${clientWhere({ scope, activeOnly: true })}`);
}

export async function findClient(db: Queryable, scope: Scope, clientId: number): Promise<Client | undefined> {
  const [client] = await findClients(db, { scope, clientId }, null);
  return client;
}

/** The raw row a rule needs (stake limit, phone), when the client is live and in scope. */
export async function findClientFacts(db: Queryable, scope: Scope, clientId: number) {
  const [row] = await rows<{ id: number; name: string; phone: string; maximum_stake_cents: string | null; active: boolean }>(
    db,
    sql`select c.id, c.name, c.phone, c.maximum_stake_cents, ${activeClientSql(sql`c`)} as active
          from ${clients} c where ${clientWhere({ scope, clientId })}`,
  );
  if (!row) return undefined;
  return {
    id: Number(row.id),
    name: row.name,
    phone: row.phone,
    maximumStakeCents: row.maximum_stake_cents == null ? null : Number(row.maximum_stake_cents),
    active: Boolean(row.active),
  };
}

export async function findClientIdsOf(db: Queryable, userId: number): Promise<number[]> {
  const found = await db
    .select({ id: clientAssignments.clientId })
    .from(clientAssignments)
    .innerJoin(clients, eq(clients.id, clientAssignments.clientId))
    .where(and(eq(clientAssignments.userId, userId), isNull(clients.deletedAt)));
  return found.map((r) => r.id);
}

/** One page of live clients by name (clients_live_name_idx), with who looks after each. */
export async function findAssignableClients(
  db: Queryable,
  f: { search: string; dir: 'asc' | 'desc'; page: Page },
): Promise<AssignableClient[]> {
  const dir = sql.raw(f.dir);
  const found = await rows<{ id: number; name: string; phone: string; active: boolean; user_id: number | null }>(
    db,
    sql`select c.id, c.name, c.phone, ${activeClientSql(sql`c`)} as active, a.user_id
          from (select c.* from ${clients} c where ${clientWhere({ scope: 'all', search: f.search })}
                 order by c.name ${dir}, c.id ${dir} ${limitSql(f.page)}) c
          left join ${clientAssignments} a on a.client_id = c.id
         order by c.name ${dir}, c.id ${dir}`,
  );
  return found.map((r) => ({
    id: Number(r.id),
    name: r.name,
    phone: r.phone,
    status: r.active ? 1 : 0,
    assigned_user_id: r.user_id == null ? null : Number(r.user_id),
  }));
}

export async function countLiveClientsAmong(db: Queryable, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${clients} where deleted_at is null and id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
  );
  return Number(row?.n ?? 0);
}

// ---- writes ---------------------------------------------------------------------------------

export async function findLiveClientByPhone(db: Queryable, phone: string): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.phone, phone), isNull(clients.deletedAt)));
  return row;
}

export async function lockClient(db: Queryable, clientId: number) {
  const [row] = await db
    .select({ id: clients.id, name: clients.name, phone: clients.phone, email: clients.email, maximumStakeCents: clients.maximumStakeCents })
    .from(clients)
    .where(and(eq(clients.id, clientId), isNull(clients.deletedAt)))
    .for('update');
  return row;
}

export async function findPasswordRows(db: Queryable, clientId: number) {
  return db
    .select({ id: clientPlatformPasswords.id, platform: clientPlatformPasswords.platform, sealed: clientPlatformPasswords.passwordSealed })
    .from(clientPlatformPasswords)
    .where(eq(clientPlatformPasswords.clientId, clientId))
    .orderBy(clientPlatformPasswords.platform);
}

export async function replacePasswords(db: Queryable, clientId: number, sealed: { platform: string; sealed: string }[]) {
  await db.delete(clientPlatformPasswords).where(eq(clientPlatformPasswords.clientId, clientId));
  if (sealed.length === 0) return;
  await db
    .insert(clientPlatformPasswords)
    .values(sealed.map((p) => ({ clientId, platform: p.platform, passwordSealed: p.sealed })));
}


/** The staff member a client is assigned to, if any. */
export async function findAssignedUserId(db: Queryable, clientId: number): Promise<number | null> {
  const [row] = await db
    .select({ userId: clientAssignments.userId })
    .from(clientAssignments)
    .where(eq(clientAssignments.clientId, clientId));
  return row?.userId ?? null;
}

/**
 * How many live clients a staff member looks after: the owner's part of clients_owner_running_idx,
 * read alone (the owner column is kept with the assignment, decision 026).
 */
export async function countLiveClientsOf(db: Queryable, userId: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${clients} where assigned_user_id = ${userId} and deleted_at is null`,
  );
  return Number(row?.n ?? 0);
}

/** The same for every staff member at once (the Users table, the staff report), off the same index. */
export async function countLiveClientsPerStaff(db: Queryable): Promise<Map<number, number>> {
  const found = await rows<{ user_id: number; n: number }>(
    db,
    sql`select assigned_user_id as user_id, count(*)::int as n from ${clients}
         where assigned_user_id is not null and deleted_at is null
         group by assigned_user_id`,
  );
  return new Map(found.map((r) => [Number(r.user_id), Number(r.n)]));
}

// ---- A client's facts ------------------------------------------------------------------------

/** What the New client / Edit client form stores on the client's row. */
export interface ClientFacts {
  name: string;
  phone: string;
  phoneHash: string;
  email: string | null;
  maximumStakeCents: number | null;
}

/** Records a new client; returns its id. */
export async function insertClient(tx: Queryable, facts: ClientFacts, createdBy: number): Promise<number> {
  const [row] = await tx.insert(clients).values({ ...facts, createdBy }).returning({ id: clients.id });
  return row!.id;
}

/** Rewrites a client's facts. */
export async function updateClientFacts(tx: Queryable, clientId: number, facts: ClientFacts): Promise<void> {
  await tx.update(clients).set({ ...facts, updatedAt: sql`now()` }).where(eq(clients.id, clientId));
}

// ---- Assignment to staff ---------------------------------------------------------------------

/** Who each of these clients is assigned to now (those assigned at all). */
export function assignmentsOf(tx: Queryable, clientIds: number[]): Promise<{ clientId: number; userId: number }[]> {
  return tx
    .select({ clientId: clientAssignments.clientId, userId: clientAssignments.userId })
    .from(clientAssignments)
    .where(inArray(clientAssignments.clientId, clientIds));
}

/** Assigns the clients to the user; a client assigned elsewhere moves. */
export async function assignClientsTo(tx: Queryable, userId: number, clientIds: number[], assignedBy: number): Promise<void> {
  await tx
    .insert(clientAssignments)
    .values(clientIds.map((clientId) => ({ clientId, userId, assignedBy })))
    .onConflictDoUpdate({
      target: clientAssignments.clientId,
      set: { userId, assignedBy, assignedAt: sql`now()` },
    });
}

/** Drops one client's assignment to the user; false when it was not theirs. */
export async function dropAssignment(tx: Queryable, userId: number, clientId: number): Promise<boolean> {
  const dropped = await tx
    .delete(clientAssignments)
    .where(and(eq(clientAssignments.userId, userId), eq(clientAssignments.clientId, clientId)))
    .returning({ clientId: clientAssignments.clientId });
  return dropped.length > 0;
}

/** Drops every assignment of the user; returns the clients' ids. */
export async function dropAssignmentsOf(tx: Queryable, userId: number): Promise<number[]> {
  const dropped = await tx
    .delete(clientAssignments)
    .where(eq(clientAssignments.userId, userId))
    .returning({ clientId: clientAssignments.clientId });
  return dropped.map((d) => d.clientId);
}

// ---- The lists' orders -----------------------------------------------------------------------

type Sorting<N extends 'clients' | 'activeClients' | 'userClients'> = { sort?: SortOf<N> | undefined; dir?: SortDirection | undefined };

const clientSorts: Record<SortOf<'clients'>, SQL> = { joined_on: sql`c.created_at`, name: sql`c.name` };
const activeSorts: Record<SortOf<'activeClients'>, SQL> = { name: sql`c.name` };
const userClientSorts: Record<SortOf<'userClients'>, SQL> = { name: sql`c.name`, joined_on: sql`c.created_at` };

/** The Clients list's order, as the request sorts it. */
export function clientListOrder(q: Sorting<'clients'>): SQL {
  return orderSql('clients', clientSorts, sql`c.id`, q);
}

/** The Active clients list's order (by name). */
export function activeClientListOrder(q: Sorting<'activeClients'>): SQL {
  return orderSql('activeClients', activeSorts, sql`c.id`, q);
}

/** A user's clients list's order. */
export function userClientListOrder(q: Sorting<'userClients'>): SQL {
  return orderSql('userClients', userClientSorts, sql`c.id`, q);
}
