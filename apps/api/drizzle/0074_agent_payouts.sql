-- Decision 093: an agent's payout of a closed Nairobi month, one per agent and month, asked by one
-- admin, approved by another, sent once by M-Pesa B2C (whole shillings; cents carry on).
CREATE TABLE IF NOT EXISTS "agent_payouts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"agent_id" integer NOT NULL REFERENCES "agents"("id"),
	"month" text NOT NULL,
	"commissions_cents" bigint NOT NULL,
	"carried_cents" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"phone" text NOT NULL,
	"status" text DEFAULT 'awaiting_approval' NOT NULL,
	"requested_by" integer NOT NULL REFERENCES "users"("id"),
	"approved_by" integer REFERENCES "users"("id"),
	"originator_conversation_id" text NOT NULL UNIQUE,
	"conversation_id" text,
	"mpesa_receipt" text,
	"result_code" text,
	"result_desc" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"status_queried_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "agent_payouts_whole_shillings" CHECK ("amount_cents" > 0 and "amount_cents" % 100 = 0),
	CONSTRAINT "agent_payouts_sum" CHECK ("amount_cents" <= "commissions_cents" + "carried_cents"),
	CONSTRAINT "agent_payouts_status" CHECK ("status" in ('awaiting_approval', 'sending', 'unknown', 'held', 'paid', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "agent_payouts_agent_month_key" ON "agent_payouts" USING btree ("agent_id","month");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "agent_payouts_status_idx" ON "agent_payouts" USING btree ("status","created_at","id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "agent_payouts_conversation_idx" ON "agent_payouts" USING btree ("conversation_id");
