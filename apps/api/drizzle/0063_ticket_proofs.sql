-- Decision 071: every publication of a ticket is a link of one hash chain, each hash including the previous.
CREATE TABLE IF NOT EXISTS "tip_ticket_proofs" (
  "seq" bigserial PRIMARY KEY NOT NULL,
  "ticket_id" integer NOT NULL REFERENCES "tip_tickets"("id") ON DELETE CASCADE,
  "content" text NOT NULL,
  "prev_hash" text NOT NULL,
  "hash" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "tip_ticket_proofs_hash_unique" UNIQUE ("hash")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tip_ticket_proofs_ticket_idx" ON "tip_ticket_proofs" ("ticket_id", "seq");
