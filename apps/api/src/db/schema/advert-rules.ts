import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** What a refused promotional text was: a broadcast being sent, or a template (setting) being saved. */
export const PROMOTION_REFUSAL_SOURCES = ['broadcast', 'template'] as const;

/**
 * Every promotional text refused for a banned claim (decision 061): the text, the claims found
 * (`[{ word, rule }]`), what it was (a broadcast's segment, a template's setting key) and who tried.
 * Written outside the refused request's transaction, so the refusal is kept though nothing else is.
 */
export const promotionRefusals = pgTable(
  'promotion_refusals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    source: text('source', { enum: PROMOTION_REFUSAL_SOURCES }).notNull(),
    /** A broadcast's segment, or a template's setting key. */
    target: text('target').notNull(),
    language: text('language', { enum: ['en', 'sw'] }).notNull(),
    body: text('body').notNull(),
    claims: jsonb('claims').notNull().$type<{ word: string; rule: string }[]>(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('promotion_refusals_created_idx').on(t.createdAt)],
);
