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
 * A lock row per shared limit: the SMS dispatchers of every process take the 'sms' row FOR UPDATE
 * while they decide whether a batch may leave (decision 034; the token columns are no longer read).
 */
export const rateBuckets = pgTable('rate_buckets', {
  name: text('name').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  refilledAt: timestamp('refilled_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The SMS gateway requests that may still share a second with the next one, for every dispatcher
 * of every process (decision 034). A request counts from when it was allowed to leave until one
 * second after its answer came back: the gateway saw it in between, whatever the machine's load.
 */
export const smsSendBookings = pgTable('sms_send_bookings', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  messages: integer('messages').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  answeredAt: timestamp('answered_at', { withTimezone: true }),
});

/**
 * A job that must not run in two processes at once holds its lease (src/db/leases.ts, decision 064):
 * taken when free or lapsed, renewed while the holder works, free again at `until`.
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});
