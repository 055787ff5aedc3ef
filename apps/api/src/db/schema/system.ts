import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Business constants an admin may tune (BUSINESS-RULES.md), seeded with their defaults. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  description: text('description').notNull(),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Why the value stands as it does: the reason an admin gave for turning a safeguard off (decision 065). */
  reason: text('reason'),
});

/** Who changed money, permissions or content, when, and from what to what. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: integer('actor_user_id').references(() => users.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The screen pages newest first by (at, id); each filter has an index that yields its rows in
  // that order, so a page costs its own rows, not a scan of millions.
  (t) => [
    index('audit_at_id_idx').on(t.at.desc(), t.id.desc()),
    index('audit_entity_at_idx').on(t.entity, t.entityId, t.at.desc(), t.id.desc()),
    index('audit_actor_at_idx').on(t.actorUserId, t.at.desc(), t.id.desc()),
    index('audit_action_at_idx').on(t.action, t.at.desc(), t.id.desc()),
  ],
);
