import { refusalTexts } from '@betdesk/contract';
import type { AuditQuery } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { AUDIT_ACTIONS, type AuditAction } from './actions.ts';
import type { Rider } from '../../db/riders.ts';
import { auditActions, auditCount, auditEntities, auditPage, auditRowsInsert, auditUsers, insertAuditRows } from './queries.ts';

/** Who made a change, under which request: `actorUserId` is null when the system or the person themselves made it. */
export interface AuditBy {
  actorUserId: number | null;
  requestId?: string | null;
}

/** What the change was: the record's values before and after it, as far as they matter. */
export interface AuditChange {
  before?: unknown;
  after?: unknown;
}

/** A staff member's change, made under the request's id. */
export function byStaff(actor: Actor, requestId: string | null): AuditBy {
  return { actorUserId: actor.userId, requestId };
}

/**
 * Writes one audit row: `action` done to the record `entityId` (of the kind the catalogue names for
 * the action), who made it and what changed. Call it inside the transaction that makes the change.
 */
export async function audit(db: Queryable, action: AuditAction, entityId: string | number | null, by: AuditBy, change: AuditChange = {}): Promise<void> {
  await insertAuditRows(db, [auditEntry(action, entityId, by, change)]);
}

/** One audit row, written later with others of the same transaction (`auditAll`). */
export type AuditEntry = ReturnType<typeof auditEntry>;

export function auditEntry(action: AuditAction, entityId: string | number | null, by: AuditBy, change: AuditChange = {}) {
  return {
    actorUserId: by.actorUserId,
    action,
    entity: AUDIT_ACTIONS[action],
    entityId: entityId == null ? null : String(entityId),
    before: change.before ?? null,
    after: change.after ?? null,
    requestId: by.requestId ?? null,
  };
}

/** Writes audit rows of one transaction in one statement, in the order given. */
export async function auditAll(db: Queryable, entries: AuditEntry[]): Promise<void> {
  if (entries.length > 0) await insertAuditRows(db, entries);
}

/**
 * Audit rows to be written by another statement of the same transaction, riding along with it
 * (`ridersFirst`, e.g. with a sale's invoice): one round trip fewer. Null when there are none.
 */
export function auditRider(db: Queryable, entries: AuditEntry[]): Rider | null {
  return entries.length > 0 ? auditRowsInsert(db, entries) : null;
}

/** The audit screen: one page of the trail, its capped count and the users the filter offers. */
export async function readAuditLog(db: Queryable, filter: AuditQuery) {
  if (filter.entity_id && !filter.entity) throw fieldError('entity', refusalTexts.auditEntityRequired);
  const [entries, counted, people, actions, entities] = await Promise.all([
    auditPage(db, filter),
    auditCount(db, filter),
    auditUsers(db),
    auditActions(db),
    auditEntities(db),
  ]);
  return {
    total_records: counted.total,
    total_capped: counted.capped,
    entries,
    users: people.map((p) => ({ id: Number(p.id), name: p.name })),
    actions,
    entities,
  };
}
