import { auditLog } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

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
  await db.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    requestId: entry.requestId ?? null,
  });
}
