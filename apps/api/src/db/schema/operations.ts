import { bigint, boolean, doublePrecision, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Each backup attempt (scheduled, "Back up now" or the CLI): the dashboard and /metrics read the latest. */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    trigger: text('trigger', { enum: ['schedule', 'manual', 'cli'] }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ok: boolean('ok'),
    fileName: text('file_name'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    sha256: text('sha256'),
    /** The written file was read back, decrypted and its dump matched the manifest's checksum. */
    verified: boolean('verified').notNull().default(false),
    error: text('error'),
    requestedBy: integer('requested_by').references(() => users.id),
  },
  (t) => [index('backup_runs_ok_finished_idx').on(t.ok, t.finishedAt.desc())],
);

/**
 * Token buckets shared by every process on the database (decision 023): the SMS dispatchers of
 * all API and worker processes together send at most SMS_SEND_RATE messages a second.
 */
export const rateBuckets = pgTable('rate_buckets', {
  name: text('name').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  refilledAt: timestamp('refilled_at', { withTimezone: true }).notNull().defaultNow(),
});
