-- The expiry job marks lapsed subscriptions in bounded batches (decision 064): this index holds only
-- the subscriptions not yet marked, so each batch finds its rows by key instead of scanning the
-- table, and it shrinks as history is caught up.
CREATE INDEX IF NOT EXISTS "subscriptions_lapse_due_idx" ON "subscriptions" USING btree ("expires_at","id") WHERE "subscriptions"."lapsed_at" is null;--> statement-breakpoint
-- One process at a time runs a job that must not run twice at once: it holds the job's lease,
-- renewed while it works; a lease not renewed by its end is free for the next process.
CREATE TABLE IF NOT EXISTS "job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
