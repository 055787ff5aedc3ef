import { refusalTexts } from '@betdesk/contract';
import type { AuditQuery } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { fieldError } from '../../http/errors.ts';
import { auditActions, auditCount, auditEntities, auditPage, auditUsers, insertAuditRow } from './queries.ts';

export interface AuditEntry {
  actorUserId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
}

/** Writes one audit row; call it inside the transaction that makes the change. */
export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  await insertAuditRow(db, {
    actorUserId: entry.actorUserId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    requestId: entry.requestId ?? null,
  });
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
