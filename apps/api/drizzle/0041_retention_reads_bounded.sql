CREATE TABLE "retention_payers_since" (
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"since" date NOT NULL,
	"day" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "retention_payers_since_dim_since_day_key_pk" PRIMARY KEY("dim","since","day","key")
);
--> statement-breakpoint
ALTER TABLE "retention_days" ADD COLUMN "churn_so_far_week" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "retention_days" ADD COLUMN "churn_so_far_month" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "retention_intervals_starts_idx" ON "retention_intervals" USING btree ("dim","starts_at");--> statement-breakpoint
CREATE INDEX "retention_payers_prev_idx" ON "retention_payers" USING btree ("dim","prev_day","day","key","n");--> statement-breakpoint
-- The summaries gain pieces the old rows lack: emptied and every tips subscriber marked again (npm run db:refresh-summaries rebuilds at once).
TRUNCATE retention_covers, retention_intervals, retention_days, retention_ends, retention_payers, retention_payers_since, retention_cohorts;--> statement-breakpoint
INSERT INTO retention_dirty (subscriber_id) SELECT DISTINCT subscriber_id FROM subscriptions WHERE subscriber_id IS NOT NULL
  ON CONFLICT (subscriber_id) DO NOTHING;
