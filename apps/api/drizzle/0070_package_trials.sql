-- Decision 089: a package may offer a free trial (so many days, once per phone, optionally only
-- with automatic renewal set up), and every trial started is recorded with the paid subscription
-- that converted it. A trial is not a sale: its subscription has source 'trial' and amount 0.
ALTER TABLE "price_packages" ADD COLUMN IF NOT EXISTS "trial_days" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "price_packages" ADD COLUMN IF NOT EXISTS "trial_needs_auto_renew" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "price_packages" ADD CONSTRAINT "price_packages_trial_days" CHECK ("trial_days" between 0 and 31);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "trial_uses" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "package_id" integer NOT NULL REFERENCES "price_packages"("id"),
  "subscriber_id" integer NOT NULL REFERENCES "tips_subscribers"("id"),
  "phone_hash" text NOT NULL,
  "trial_days" integer NOT NULL,
  "subscription_id" bigint NOT NULL REFERENCES "subscriptions"("id"),
  "standing_order_id" bigint REFERENCES "standing_orders"("id"),
  "converted_subscription_id" bigint REFERENCES "subscriptions"("id"),
  "converted_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "trial_uses_once_per_phone" ON "trial_uses" ("package_id", "phone_hash");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "trial_uses_open_idx" ON "trial_uses" ("subscriber_id") WHERE "converted_subscription_id" is null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "trial_uses_created_idx" ON "trial_uses" ("created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "trial_uses_converted_idx" ON "trial_uses" ("converted_at") WHERE "converted_at" is not null;
--> statement-breakpoint
-- The first paid subscription of the trial's bet category and medium bought after it started
-- converts it, whatever path bought it (paybill, STK push, Ratiba run, account balance).
CREATE OR REPLACE FUNCTION convert_trial() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.subscriber_id IS NULL OR NEW.source IN ('trial', 'manual') OR NEW.amount_cents <= 0 THEN
    RETURN NEW;
  END IF;
  UPDATE trial_uses tu SET converted_subscription_id = NEW.id, converted_at = NEW.created_at
    FROM price_packages p
   WHERE tu.subscriber_id = NEW.subscriber_id AND tu.converted_subscription_id IS NULL
     AND p.id = tu.package_id AND p.bet_category_id = NEW.bet_category_id AND p.medium = NEW.medium
     AND tu.created_at <= NEW.created_at;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER subscriptions_convert_trial AFTER INSERT ON subscriptions FOR EACH ROW EXECUTE FUNCTION convert_trial();
