-- Decision 067: one search for anything. A receipt is found by its first characters (a prefix range
-- the default b-tree of the unique key cannot serve under a non-C collation), an invoice by its
-- number alone (the unique key leads with the branch).
CREATE INDEX IF NOT EXISTS "mpesa_payments_trans_id_prefix_idx" ON "mpesa_payments" USING btree ("trans_id" text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tax_invoices_number_idx" ON "tax_invoices" USING btree ("number");
