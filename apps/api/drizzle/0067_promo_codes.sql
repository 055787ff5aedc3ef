-- Decision 077: promo codes an admin gives out (radio, social media), and every use of one: held
-- while its STK push waits, used by the sale it made, released when the push ends unpaid.
CREATE TABLE IF NOT EXISTS "promo_codes" (
  "id" serial PRIMARY KEY NOT NULL,
  "code" text NOT NULL,
  "kind" text NOT NULL,
  "percent_off" integer,
  "amount_off_cents" bigint,
  "package_ids" integer[] NOT NULL,
  "starts_at" timestamp with time zone NOT NULL,
  "ends_at" timestamp with time zone NOT NULL,
  "max_uses" integer,
  "uses" integer DEFAULT 0 NOT NULL,
  "one_per_phone" boolean DEFAULT true NOT NULL,
  "first_purchase_only" boolean DEFAULT false NOT NULL,
  "created_by" integer REFERENCES "users"("id"),
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "promo_codes_kind" CHECK ("kind" in ('percent', 'fixed')),
  CONSTRAINT "promo_codes_uses_capped" CHECK ("max_uses" is null or "uses" <= "max_uses")
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "promo_codes_code_key" ON "promo_codes" ("code");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "promo_code_uses" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "code_id" integer NOT NULL REFERENCES "promo_codes"("id"),
  "phone" text NOT NULL,
  "phone_key" text,
  "package_id" integer NOT NULL REFERENCES "price_packages"("id"),
  "channel" text NOT NULL,
  "list_price_cents" bigint NOT NULL,
  "discount_cents" bigint NOT NULL,
  "price_cents" bigint NOT NULL,
  "status" text DEFAULT 'held' NOT NULL,
  "stk_request_id" bigint REFERENCES "stk_requests"("id"),
  "payment_id" bigint REFERENCES "mpesa_payments"("id"),
  "subscription_id" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "used_at" timestamp with time zone,
  CONSTRAINT "promo_code_uses_status" CHECK ("status" in ('held', 'used', 'released')),
  CONSTRAINT "promo_code_uses_channel" CHECK ("channel" in ('portal', 'ussd', 'paybill'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "promo_code_uses_one_per_phone" ON "promo_code_uses" ("code_id", "phone_key");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "promo_code_uses_stk_idx" ON "promo_code_uses" ("stk_request_id") WHERE "stk_request_id" is not null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "promo_code_uses_used_idx" ON "promo_code_uses" ("used_at") WHERE "status" = 'used';
