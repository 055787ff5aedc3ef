-- Self-exclusion and the under-18 mark (decision 059). A person is known by their phone and its
-- SHA-256; erasure empties the phone and keeps the hash, as erased phones are kept.
CREATE TABLE IF NOT EXISTS "self_exclusions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"phone" text,
	"phone_hash" text NOT NULL,
	"period" text NOT NULL,
	"channel" text NOT NULL,
	"starts_at" timestamptz DEFAULT now() NOT NULL,
	"ends_at" timestamptz,
	"recorded_by" integer REFERENCES "users"("id"),
	"note" text,
	"end_told_at" timestamptz,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "self_exclusions_phone_hash_idx" ON "self_exclusions" ("phone_hash", "ends_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "self_exclusions_ended_idx" ON "self_exclusions" ("ends_at") WHERE "end_told_at" IS NULL AND "ends_at" IS NOT NULL;
--> statement-breakpoint
-- Nobody ends an exclusion early: its start and end never change and its row is never deleted.
CREATE OR REPLACE FUNCTION self_exclusion_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'A self-exclusion cannot be removed' USING ERRCODE = 'P0001';
  END IF;
  IF NEW.starts_at IS DISTINCT FROM OLD.starts_at OR NEW.ends_at IS DISTINCT FROM OLD.ends_at OR NEW.period IS DISTINCT FROM OLD.period THEN
    RAISE EXCEPTION 'A self-exclusion cannot be shortened or lifted' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "self_exclusions_fixed" ON "self_exclusions";
--> statement-breakpoint
CREATE TRIGGER "self_exclusions_fixed" BEFORE UPDATE OR DELETE ON "self_exclusions" FOR EACH ROW EXECUTE FUNCTION self_exclusion_fixed();
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "under_18_marks" (
	"phone_hash" text PRIMARY KEY,
	"phone" text,
	"note" text NOT NULL,
	"marked_by" integer REFERENCES "users"("id"),
	"marked_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "refused_sales" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"payment_id" bigint REFERENCES "mpesa_payments"("id"),
	"phone_hash" text NOT NULL,
	"reason" text NOT NULL,
	"channel" text NOT NULL,
	"created_at" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "refused_sales_created_idx" ON "refused_sales" ("created_at");
