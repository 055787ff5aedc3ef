CREATE TABLE "retention_cohorts" (
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"cohort" date NOT NULL,
	"month" date NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	"active" integer DEFAULT 0 NOT NULL,
	"income_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "retention_cohorts_dim_key_cohort_month_pk" PRIMARY KEY("dim","key","cohort","month")
);
--> statement-breakpoint
CREATE TABLE "retention_covers" (
	"subscription_id" bigint PRIMARY KEY NOT NULL,
	"subscriber_id" integer NOT NULL,
	"category_id" integer,
	"medium" text,
	"source" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"channel" text NOT NULL,
	"renewal_lag_ms" bigint
);
--> statement-breakpoint
CREATE TABLE "retention_days" (
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"day" date NOT NULL,
	"cover_in" integer DEFAULT 0 NOT NULL,
	"cover_out" integer DEFAULT 0 NOT NULL,
	"churn_day" integer DEFAULT 0 NOT NULL,
	"churn_week" integer DEFAULT 0 NOT NULL,
	"churn_month" integer DEFAULT 0 NOT NULL,
	"income_cents" bigint DEFAULT 0 NOT NULL,
	"retained_day_cents" bigint DEFAULT 0 NOT NULL,
	"retained_week_cents" bigint DEFAULT 0 NOT NULL,
	"retained_month_cents" bigint DEFAULT 0 NOT NULL,
	"payers_day" integer DEFAULT 0 NOT NULL,
	"payers_week" integer DEFAULT 0 NOT NULL,
	"payers_month" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "retention_days_dim_key_day_pk" PRIMARY KEY("dim","key","day")
);
--> statement-breakpoint
CREATE TABLE "retention_dirty" (
	"subscriber_id" integer PRIMARY KEY NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_ends" (
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"day" date NOT NULL,
	"lag_days" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "retention_ends_dim_key_day_lag_days_pk" PRIMARY KEY("dim","key","day","lag_days")
);
--> statement-breakpoint
CREATE TABLE "retention_intervals" (
	"subscriber_id" integer NOT NULL,
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"next_starts_at" timestamp with time zone,
	CONSTRAINT "retention_intervals_subscriber_id_dim_key_starts_at_pk" PRIMARY KEY("subscriber_id","dim","key","starts_at")
);
--> statement-breakpoint
CREATE TABLE "retention_payers" (
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"day" date NOT NULL,
	"prev_day" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "retention_payers_dim_key_day_prev_day_pk" PRIMARY KEY("dim","key","day","prev_day")
);
--> statement-breakpoint
CREATE INDEX "retention_covers_subscriber_idx" ON "retention_covers" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "retention_covers_expires_idx" ON "retention_covers" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "retention_intervals_ends_idx" ON "retention_intervals" USING btree ("dim","ends_at");--> statement-breakpoint

-- Retention summaries (docs/decisions/043-retention-summaries.md). A change to a tips subscriber's subscriptions
-- marks the subscriber; reports/retention-summary.ts takes back what their old rows added to the summaries and
-- adds what the new ones do, before any retention read and every minute in the worker. The upsert (not DO NOTHING)
-- locks a mark being taken, so a purchase committed while it is taken marks the subscriber again.
CREATE OR REPLACE FUNCTION mark_retention_subscriber() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.subscriber_id IS NOT NULL THEN
    INSERT INTO retention_dirty (subscriber_id) VALUES (OLD.subscriber_id)
      ON CONFLICT (subscriber_id) DO UPDATE SET marked_at = now();
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.subscriber_id IS NOT NULL THEN
    INSERT INTO retention_dirty (subscriber_id) VALUES (NEW.subscriber_id)
      ON CONFLICT (subscriber_id) DO UPDATE SET marked_at = now();
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER subscriptions_retention_ins AFTER INSERT OR DELETE ON subscriptions FOR EACH ROW EXECUTE FUNCTION mark_retention_subscriber();--> statement-breakpoint
CREATE TRIGGER subscriptions_retention_upd AFTER UPDATE OF subscriber_id, bet_category_id, medium, source, amount_cents, created_at, starts_at, expires_at, reversed_at
  ON subscriptions FOR EACH ROW EXECUTE FUNCTION mark_retention_subscriber();--> statement-breakpoint
-- The backfill: every tips subscriber is marked; the worker (or npm run db:refresh-summaries) summarises them.
INSERT INTO retention_dirty (subscriber_id) SELECT DISTINCT subscriber_id FROM subscriptions WHERE subscriber_id IS NOT NULL
  ON CONFLICT (subscriber_id) DO NOTHING;
