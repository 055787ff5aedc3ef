-- Decision 070: the sports-data feed's local fixtures, its quota, and what a ticket leg takes from it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "feed_fixtures" (
  "provider" text NOT NULL,
  "external_id" text NOT NULL,
  "league_id" text NOT NULL,
  "competition" text NOT NULL,
  "home" text NOT NULL,
  "away" text NOT NULL,
  "kickoff_at" timestamp with time zone NOT NULL,
  "status" text NOT NULL,
  "provider_status" text NOT NULL,
  "status_since" timestamp with time zone DEFAULT now() NOT NULL,
  "score" jsonb,
  "search_text" text GENERATED ALWAYS AS (lower(home || ' ' || away || ' ' || competition)) STORED,
  "synced_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "feed_fixtures_provider_external_id_pk" PRIMARY KEY ("provider", "external_id"),
  CONSTRAINT "feed_fixtures_status_check" CHECK ("status" IN ('scheduled', 'live', 'finished', 'postponed', 'suspended', 'cancelled', 'abandoned', 'awarded'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "feed_fixtures_kickoff_idx" ON "feed_fixtures" ("kickoff_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "feed_fixtures_search_trgm_idx" ON "feed_fixtures" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "feed_quota" (
  "provider" text PRIMARY KEY NOT NULL,
  "remaining_day" integer,
  "remaining_minute" integer,
  "backoff_until" timestamp with time zone,
  "last_sync_at" timestamp with time zone,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "fixture_provider" text;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "fixture_id" text;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "odds_source" text DEFAULT 'typed' NOT NULL;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "odds_captured_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "feed_odds_hundredths" integer;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "verified" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "closing_odds_hundredths" integer;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "closing_captured_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "proposed_result" text;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "proposal_basis" text;
--> statement-breakpoint
ALTER TABLE "tip_selections" ADD COLUMN IF NOT EXISTS "proposed_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tip_selections_open_fixture_idx" ON "tip_selections" ("fixture_provider", "fixture_id") WHERE "fixture_id" IS NOT NULL AND "result" IS NULL;
