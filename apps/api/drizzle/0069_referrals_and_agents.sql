-- Decision 088: referral codes are promo codes of kind 'referral' (no discount, every package,
-- first purchase only, one use per phone) owned by a subscriber or an agent, so they ride every
-- channel a promo code rides and each use is the referral's record (linked to its payment and sale).
CREATE TABLE IF NOT EXISTS "agents" (
  "id" serial PRIMARY KEY NOT NULL,
  "name" text NOT NULL,
  "phone" text NOT NULL,
  "created_by" integer REFERENCES "users"("id"),
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "agents_phone_key" ON "agents" ("phone");
--> statement-breakpoint
ALTER TABLE "promo_codes" DROP CONSTRAINT IF EXISTS "promo_codes_kind";
--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_kind" CHECK ("kind" in ('percent', 'fixed', 'referral'));
--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN IF NOT EXISTS "referrer_subscriber_id" integer REFERENCES "tips_subscribers"("id");
--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN IF NOT EXISTS "referrer_agent_id" integer REFERENCES "agents"("id");
--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_referrer" CHECK (("kind" = 'referral') = (("referrer_subscriber_id" is not null) <> ("referrer_agent_id" is not null)));
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "promo_codes_subscriber_key" ON "promo_codes" ("referrer_subscriber_id") WHERE "referrer_subscriber_id" is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "promo_codes_agent_key" ON "promo_codes" ("referrer_agent_id") WHERE "referrer_agent_id" is not null;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "referral_rewards" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "use_id" bigint NOT NULL REFERENCES "promo_code_uses"("id"),
  "subscriber_id" integer NOT NULL REFERENCES "tips_subscribers"("id"),
  "outcome" text NOT NULL,
  "days" integer NOT NULL,
  "subscription_id" bigint REFERENCES "subscriptions"("id"),
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "referral_rewards_outcome" CHECK ("outcome" in ('granted', 'refunded', 'suppressed', 'self_referral'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "referral_rewards_use_key" ON "referral_rewards" ("use_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "agent_commissions" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "agent_id" integer NOT NULL REFERENCES "agents"("id"),
  "use_id" bigint NOT NULL REFERENCES "promo_code_uses"("id"),
  "payment_id" bigint NOT NULL REFERENCES "mpesa_payments"("id"),
  "kind" text NOT NULL,
  "month" text NOT NULL,
  "payment_cents" bigint NOT NULL,
  "percent" integer NOT NULL,
  "amount_cents" bigint NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "agent_commissions_kind" CHECK ("kind" in ('commission', 'clawback')),
  CONSTRAINT "agent_commissions_sign" CHECK (("kind" = 'commission' and "amount_cents" >= 0) or ("kind" = 'clawback' and "amount_cents" <= 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "agent_commissions_payment_kind_key" ON "agent_commissions" ("payment_id", "kind");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "agent_commissions_agent_month_idx" ON "agent_commissions" ("agent_id", "month");
