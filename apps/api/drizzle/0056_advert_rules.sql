-- Promotions that keep the advertising rules (decision 061): a broadcast keeps the language its
-- responsible-gambling lines were written in and the advert approval reference of its campaign;
-- every promotional text refused for a banned claim (a broadcast sent, a template saved) is kept.
ALTER TABLE "broadcasts" ADD COLUMN IF NOT EXISTS "language" text;
--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN IF NOT EXISTS "approval_reference" text;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "promotion_refusals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"source" text NOT NULL,
	"target" text NOT NULL,
	"language" text NOT NULL,
	"body" text NOT NULL,
	"claims" jsonb NOT NULL,
	"created_by" integer REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "promotion_refusals_created_idx" ON "promotion_refusals" ("created_at");
