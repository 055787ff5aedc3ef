-- Decision 062: the provider that carried each message, a second provider's circuit, and pulled delivery reports.
ALTER TABLE "sms_messages" ADD COLUMN IF NOT EXISTS "provider" text;
--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN IF NOT EXISTS "dlr_asked_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sms_provider_created_idx" ON "sms_messages" ("provider", "created_at", "id") WHERE "provider" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sms_dlr_due_idx" ON "sms_messages" ("provider", "sent_at") WHERE "status" = 'sent';
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sms_provider_circuits" (
  "provider" text PRIMARY KEY NOT NULL,
  "state" text DEFAULT 'closed' NOT NULL,
  "reason" text,
  "consecutive_failures" integer DEFAULT 0 NOT NULL,
  "opened_at" timestamp with time zone,
  "probe_at" timestamp with time zone,
  "balance_cents" bigint,
  "balance_at" timestamp with time zone,
  "sends_total" bigint DEFAULT 0 NOT NULL,
  "failures_total" bigint DEFAULT 0 NOT NULL,
  "changed_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "sms_provider_circuits_state_check" CHECK ("state" IN ('closed', 'open', 'half-open'))
);
