-- Decision 074: a buyer's KRA PIN and registered name (a Bet4Me client or a tips subscriber), the
-- PIN and name each invoice carried to KRA, and an invoice reissued with a PIN (a credit note of the
-- original and a new invoice, once per original).
CREATE TABLE "buyer_tax_identities" (
  "id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "client_id" integer REFERENCES "clients"("id"),
  "subscriber_id" integer REFERENCES "tips_subscribers"("id"),
  "pin" text NOT NULL,
  "name" text NOT NULL,
  "verification" text NOT NULL,
  "verified_name" text,
  "updated_by" integer REFERENCES "users"("id"),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "buyer_tax_identities_one_subject" CHECK (("client_id" IS NULL) <> ("subscriber_id" IS NULL)),
  CONSTRAINT "buyer_tax_identities_pin_format" CHECK ("pin" ~ '^[AP][0-9]{9}[A-Z]$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_tax_identities_client_key" ON "buyer_tax_identities" ("client_id") WHERE "client_id" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_tax_identities_subscriber_key" ON "buyer_tax_identities" ("subscriber_id") WHERE "subscriber_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD COLUMN "buyer_pin" text;
--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD COLUMN "buyer_name" text;
--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD COLUMN "reissue_of" bigint REFERENCES "tax_invoices"("id");
--> statement-breakpoint
DROP INDEX "tax_invoices_sale_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "tax_invoices_sale_idx" ON "tax_invoices" ("subscription_id") WHERE "kind" = 'invoice' AND "reissue_of" IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "tax_invoices_reissue_idx" ON "tax_invoices" ("reissue_of") WHERE "reissue_of" IS NOT NULL;
