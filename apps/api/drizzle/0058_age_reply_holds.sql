-- Decision 066: a paybill payment from a phone that never declared it is 18 or older is held until
-- the phone replies 18 (within age_declaration_grace_hours), else listed for a refund.
CREATE TABLE IF NOT EXISTS "age_held_payments" (
	"payment_id" bigint PRIMARY KEY NOT NULL REFERENCES "mpesa_payments"("id"),
	"phone" text NOT NULL,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sold_at" timestamp with time zone,
	"unsold_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "age_held_payments_phone_idx" ON "age_held_payments" ("phone") WHERE "sold_at" IS NULL AND "unsold_at" IS NULL;
--> statement-breakpoint
-- A phone that bought tips before the gate existed made its first purchase already: it counts as
-- declared, under its own channel, so that the register says it never ticked (decision 066).
INSERT INTO "age_declarations" ("phone", "channel", "declared_at")
SELECT DISTINCT s."phone", 'before_gate', now()
  FROM "tips_subscribers" s
 WHERE s."phone" NOT LIKE 'erased%'
   AND EXISTS (SELECT 1 FROM "subscriptions" sub WHERE sub."subscriber_id" = s."id")
ON CONFLICT ("phone") DO NOTHING;
