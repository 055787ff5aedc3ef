import type { z } from 'zod';
import {
  clientTexts,
  kesToCents,
  type Client,
  type ClientForm,
  type ClientLanguageForm,
  type CustomerLanguage,
  type PageQuery,
  type PlatformPassword,
  type SortDirection,
  type SortOf,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Actor, StaffFormAction } from '../../http/actor.ts';
import type { Queryable } from '../../db/client.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import { csvDateTime, csvPhone, queryBatches, type CsvTable } from '../../http/csv.ts';
import { countCapOf, pageOf, type ListCount, type ListRequest } from '../../db/list.ts';
import { summed } from '../../db/summaries.ts';
import { decryptSecret, encryptSecret, sha256Hex } from '../../lib/crypto.ts';
import { audit, byStaff } from '../audit/service.ts';
import { languageOf, personMessages, setLanguageByStaff } from '../sms/service.ts';
import * as q from './queries.ts';
import { scopeOf, type Scope } from '../../db/scope.ts';

/** How many live clients a staff member has (their row in the Users table, their session). */
export function countLiveClientsOf(db: Queryable, userId: number): Promise<number> {
  return q.countLiveClientsOf(db, userId);
}

/** The same for every staff member at once (the Users table, the staff report). */
export function countLiveClientsPerStaff(db: Queryable): Promise<Map<number, number>> {
  return q.countLiveClientsPerStaff(db);
}

export const CLIENT_NOT_FOUND = 'This client was not found, or is not one of your clients.';

/** The spec's Client, or 404 when it does not exist or is someone else's client. */
export async function requireClient(db: Queryable, actor: Actor, clientId: number): Promise<Client> {
  const client = await q.findClient(db, scopeOf(actor), clientId);
  if (!client) throw notFound(CLIENT_NOT_FOUND);
  return client;
}

/** What the bet and message rules need about a client in the actor's scope (404 otherwise). */
export async function requireClientFacts(db: Queryable, actor: Actor, clientId: number) {
  const facts = await q.findClientFacts(db, scopeOf(actor), clientId);
  if (!facts) throw notFound(CLIENT_NOT_FOUND);
  return facts;
}

/** A client's messages (their page's SMS tab); staff only for their own clients (404 otherwise). */
export async function clientMessages(db: Queryable, actor: Actor, query: PageQuery & { client_id: number }) {
  const client = await requireClientFacts(db, actor, query.client_id);
  return personMessages(db, { clientId: client.id, phone: client.phone }, query);
}

type ClientQuery = ListRequest<SortOf<'clients'>>;
type ActiveClientQuery = ListRequest<SortOf<'activeClients'>>;

/** How many clients the actor sees: the day summaries for an admin, their assignments for staff. */
function countAllClients(db: Queryable, scope: Scope): Promise<number> {
  if (scope === 'all') return summed(db, 'client').then((s) => s.n);
  return q.countClients(db, { scope });
}

export async function listClients(deps: AppDeps, actor: Actor, query: ClientQuery) {
  const scope = scopeOf(actor);
  const search = query.search?.trim() ?? '';
  const counted: Promise<ListCount> = search
    ? q.countClientsCapped(deps.db, { scope, search }, countCapOf(query))
    : countAllClients(deps.db, scope).then((n) => ({ total_records: n }));
  const [clientsPage, count, totalActive] = await Promise.all([
    q.findClients(deps.db, { scope, search }, pageOf(query), q.clientListOrder(query)),
    counted,
    q.countActiveClients(deps.db, scope),
  ]);
  return { ...count, total_active_clients: totalActive, clients: clientsPage };
}

/** Clients with a running subscription, by name, paged and searchable, with the totals boxes. */
export async function activeClients(deps: AppDeps, actor: Actor, query: ActiveClientQuery) {
  const scope = scopeOf(actor);
  const search = query.search?.trim() ?? '';
  const [active, totalActive, total, searched] = await Promise.all([
    q.findClients(deps.db, { scope, search, activeOnly: true }, pageOf(query), q.activeClientListOrder(query)),
    q.countActiveClients(deps.db, scope),
    countAllClients(deps.db, scope),
    search ? q.countClientsCapped(deps.db, { scope, search, activeOnly: true }, countCapOf(query)) : null,
  ]);
  return {
    ...(searched ?? { total_records: totalActive }),
    total_active_clients: totalActive,
    total_clients: total,
    active_clients: active,
  };
}

export function countActiveClients(db: Queryable, actor: Actor): Promise<number> {
  return q.countActiveClients(db, scopeOf(actor));
}

/** The client and their platform passwords, decrypted; the reveal is audited. */
export async function showClient(
  deps: AppDeps,
  actor: Actor,
  clientId: number,
  requestId: string,
): Promise<{ client: Client & { language: CustomerLanguage }; passwords: PlatformPassword[] }> {
  return deps.db.transaction(async (tx) => {
    const found = await requireClient(tx, actor, clientId);
    const client = { ...found, language: await languageOf(tx, found.phone) };
    const sealed = await q.findPasswordRows(tx, clientId);
    const passwords = sealed.map((p) => ({
      id: p.id,
      platform: p.platform,
      password: decryptSecret(deps.config.secretsKey, p.sealed),
    }));
    if (passwords.length > 0) {
      await audit(tx, 'client.passwords-reveal', clientId, byStaff(actor, requestId), { after: { platforms: passwords.map((p) => p.platform) } });
    }
    return { client, passwords };
  });
}

/**
 * Staff set the language a client asked for (by phone, in person): stored with the phone, as a
 * subscriber's is (phone_languages), so every catalogue SMS to that phone follows it; audited.
 */
export const setClientLanguage: StaffFormAction<typeof ClientLanguageForm> = async (deps, actor, form, requestId) => {
  const client = await requireClient(deps.db, actor, form.client_id);
  const person = { phone: client.phone, name: client.name, action: 'client.language' as const, entityId: client.id };
  return setLanguageByStaff(deps, actor, person, form.language, requestId);
};

type ClientFormValues = z.output<typeof ClientForm>;

/** Admin's New client / Edit client: the client's facts and the full list of platform passwords. */
export async function storeClient(
  deps: AppDeps,
  actor: Actor,
  form: ClientFormValues,
  requestId: string,
): Promise<{ info: string; client_id: number }> {
  return deps.db.transaction(async (tx) => {
    const samePhone = await q.findLiveClientByPhone(tx, form.phone);
    if (samePhone && samePhone.id !== form.client_id) throw fieldError('phone', clientTexts.phoneTaken);
    const facts = {
      name: form.name,
      phone: form.phone,
      phoneHash: sha256Hex(form.phone),
      email: form.email,
      maximumStakeCents: form.maximum_stake == null ? null : kesToCents(form.maximum_stake),
    };
    let clientId: number;
    let before: unknown = null;
    if (form.client_id) {
      const current = await q.lockClient(tx, form.client_id);
      if (!current) throw notFound(CLIENT_NOT_FOUND);
      before = current;
      clientId = current.id;
      await q.updateClientFacts(tx, clientId, facts);
    } else {
      clientId = await q.insertClient(tx, facts, actor.userId);
    }
    const platformsBefore = (await q.findPasswordRows(tx, clientId)).map((p) => p.platform);
    await q.replacePasswords(
      tx,
      clientId,
      form.passwords.map((p) => ({ platform: p.platform, sealed: encryptSecret(deps.config.secretsKey, p.password) })),
    );
    await audit(tx, form.client_id ? 'client.update' : 'client.create', clientId, byStaff(actor, requestId), {
      before: before ? { ...before, platforms: platformsBefore } : null,
      after: { name: facts.name, phone: facts.phone, email: facts.email, maximumStakeCents: facts.maximumStakeCents, platforms: form.passwords.map((p) => p.platform) },
    });
    return { info: form.client_id ? clientTexts.updated : clientTexts.created, client_id: clientId };
  });
}

// ---- assignment (used by the users domain) ---------------------------------------------------

/** Who (besides the admins) looks after this client: the staff member it is assigned to. */
export function assignedUserOf(db: Queryable, clientId: number): Promise<number | null> {
  return q.findAssignedUserId(db, clientId);
}

export function clientIdsOf(db: Queryable, userId: number): Promise<number[]> {
  return q.findClientIdsOf(db, userId);
}

/** One page of every live client by name, with who looks after each (the assignment screen). */
export async function assignableClients(db: Queryable, query: ListRequest<SortOf<'assignableClients'>>) {
  const search = query.search?.trim() ?? '';
  const [clientsPage, count] = await Promise.all([
    q.findAssignableClients(db, { search, dir: query.dir ?? 'asc', page: pageOf(query) }),
    search ? q.countClientsCapped(db, { scope: 'all', search }, countCapOf(query)) : countAllClients(db, 'all').then((n) => ({ total_records: n })),
  ]);
  return { ...count, clients: clientsPage };
}

/** One page of the clients assigned to a user (the user's clients screen). */
export async function clientsAssignedTo(db: Queryable, userId: number, query: ListRequest<SortOf<'userClients'>>) {
  const where = { scope: 'all' as const, assignedTo: userId, search: query.search?.trim() ?? '' };
  const [clientsPage, count] = await Promise.all([
    q.findClients(db, where, pageOf(query), q.userClientListOrder(query)),
    q.countClientsCapped(db, where, countCapOf(query)),
  ]);
  return { ...count, clients: clientsPage };
}

/** How many of these ids are live clients (to refuse unknown ids before assigning). */
export function countKnownClients(db: Queryable, ids: number[]): Promise<number> {
  return q.countLiveClientsAmong(db, ids);
}

/** Assigns the clients to the user; a client assigned elsewhere moves. Returns the previous owners. */
export async function assignClients(tx: Queryable, userId: number, clientIds: number[], actorUserId: number) {
  const previous = await q.assignmentsOf(tx, clientIds);
  await q.assignClientsTo(tx, userId, clientIds, actorUserId);
  return previous;
}

/** Unassigns one client from the user; false when it was not theirs. */
export async function unassignClient(tx: Queryable, userId: number, clientId: number): Promise<boolean> {
  return q.dropAssignment(tx, userId, clientId);
}

/** A trashed user's clients become unassigned. Returns their ids. */
export async function unassignAllOf(tx: Queryable, userId: number): Promise<number[]> {
  return q.dropAssignmentsOf(tx, userId);
}

// ---- CSV -----------------------------------------------------------------------------------

const clientColumns: CsvTable<Client>['columns'] = [
  { header: 'Name', value: (c) => c.name },
  { header: 'Phone', value: (c) => csvPhone(c.phone) },
  { header: 'Email', value: (c) => c.email },
  { header: 'Joined On', value: (c) => csvDateTime(c.joined_on) },
  { header: 'Maximum Stake (KES)', value: (c) => c.maximum_stake },
  { header: 'Total Subscriptions', value: (c) => c.total_subscriptions },
  { header: 'Status', value: (c) => (c.status === 1 ? 'Active' : 'Inactive') },
  { header: 'Total Bets', value: (c) => c.total_bets },
  { header: 'Pending Bonus (KES)', value: (c) => c.pending_bonus },
  { header: 'Account Balance (KES)', value: (c) => c.account_balance },
  { header: 'Last Login', value: (c) => csvDateTime(c.last_login) },
];

export function clientsCsv(
  deps: AppDeps,
  actor: Actor,
  filter: { search?: string | undefined; sort?: SortOf<'clients'> | undefined; dir?: SortDirection | undefined; activeOnly?: boolean; assignedTo?: number },
): CsvTable<Client> {
  const scope = filter.assignedTo !== undefined ? 'all' : scopeOf(actor);
  const order = filter.activeOnly ? q.activeClientListOrder({ dir: filter.dir }) : q.clientListOrder(filter);
  const where = { scope, search: filter.search?.trim() ?? '', activeOnly: filter.activeOnly, assignedTo: filter.assignedTo };
  return {
    filename: filter.activeOnly ? 'active-clients' : 'clients',
    columns: clientColumns,
    rows: queryBatches(deps.database, q.clientsExportQuery(where, order), q.toClient),
  };
}
