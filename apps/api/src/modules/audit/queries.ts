import { sql, type SQL } from 'drizzle-orm';
import { COUNT_CAP, nairobiRange, SENSITIVE_AUDIT_ACTIONS, type AuditEntry, type AuditQuery } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { auditLog, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { AuditAction } from './actions.ts';

interface AuditRow {
  id: number | string;
  at: string | Date;
  actor_user_id: number | null;
  user_name: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
}

/** The filters as one condition; each single filter is served by an index ending in (at, id). */
function whereOf(filter: AuditQuery): SQL {
  const { start, end } = nairobiRange(filter);
  const conditions: SQL[] = [sql`true`];
  if (filter.entity) conditions.push(sql`a.entity = ${filter.entity}`);
  if (filter.entity_id) conditions.push(sql`a.entity_id = ${filter.entity_id}`);
  if (filter.user_id) conditions.push(sql`a.actor_user_id = ${filter.user_id}`);
  if (filter.action) conditions.push(sql`a.action = ${filter.action}`);
  // Each sensitive action typed as the catalogue's, so one the trail never records does not compile.
  if (filter.sensitive) conditions.push(sql`a.action in (${sql.join(SENSITIVE_AUDIT_ACTIONS.map((action: AuditAction) => sql`${action}`), sql`, `)})`);
  if (start) conditions.push(sql`a.at >= ${start.toISOString()}`);
  if (end) conditions.push(sql`a.at < ${end.toISOString()}`);
  return sql.join(conditions, sql` and `);
}

/** One page of the trail, newest first. */
export async function auditPage(db: Queryable, filter: AuditQuery): Promise<AuditEntry[]> {
  const found = await rows<AuditRow>(
    db,
    sql`select a.id, a.at, a.actor_user_id, u.name as user_name, a.action, a.entity, a.entity_id,
               a.before, a.after, a.request_id
        from ${auditLog} a left join ${users} u on u.id = a.actor_user_id
        where ${whereOf(filter)}
        -- nulls last: the order the indexes hold (drizzle's desc()), so they serve it
        order by a.at desc nulls last, a.id desc nulls last
        limit ${filter.perPage} offset ${(filter.page - 1) * filter.perPage}`,
  );
  return found.map((r) => ({
    id: Number(r.id),
    at: new Date(r.at).toISOString(),
    user_id: r.actor_user_id === null ? null : Number(r.actor_user_id),
    user_name: r.user_name,
    action: r.action,
    entity: r.entity,
    entity_id: r.entity_id,
    before: r.before ?? null,
    after: r.after ?? null,
    request_id: r.request_id,
  }));
}

/** How many rows match, counting no further than the cap (the table may hold millions). */
export async function auditCount(db: Queryable, filter: AuditQuery): Promise<{ total: number; capped: boolean }> {
  const [counted] = await rows<{ n: number | string }>(
    db,
    sql`select count(*) as n from (
          select 1 from ${auditLog} a where ${whereOf(filter)} limit ${COUNT_CAP + 1}
        ) matching`,
  );
  const n = Number(counted?.n ?? 0);
  return n > COUNT_CAP ? { total: COUNT_CAP, capped: true } : { total: n, capped: false };
}

/** Everyone who can appear as "who", trashed users included (their rows stay in the trail). */
export function auditUsers(db: Queryable): Promise<{ id: number; name: string }[]> {
  return rows<{ id: number; name: string }>(db, sql`select id, name from ${users} order by name, id`);
}

/**
 * The distinct values of an indexed column of the trail (its actions, its kinds of record), for the
 * filter's selects. A loose index scan: one index probe per distinct value, however many million
 * rows the trail holds.
 */
async function distinctOf(db: Queryable, column: 'action' | 'entity'): Promise<string[]> {
  const c = sql.raw(column);
  const found = await rows<{ value: string }>(
    db,
    sql`with recursive walk(value) as (
          (select ${c} from ${auditLog} order by ${c} limit 1)
          union all
          select (select a.${c} from ${auditLog} a where a.${c} > walk.value order by a.${c} limit 1)
            from walk where walk.value is not null
        )
        select value from walk where value is not null`,
  );
  return found.map((r) => r.value);
}

export const auditActions = (db: Queryable) => distinctOf(db, 'action');
export const auditEntities = (db: Queryable) => distinctOf(db, 'entity');

/** The insert of `insertAuditRows`, not run: to ride along with another statement (`ridersFirst`). */
export function auditRowsInsert(db: Queryable, rows: (typeof auditLog.$inferInsert)[]) {
  return db.insert(auditLog).values(rows);
}

/** Inserts audit rows in one statement; their ids follow the order given. */
export async function insertAuditRows(db: Queryable, rows: (typeof auditLog.$inferInsert)[]): Promise<void> {
  await db.insert(auditLog).values(rows);
}
