-- Issue 33: the dashboards' sums over a key's days (up to ~15,000 summary rows at reference scale)
-- read summary_days_sums_idx alone (an index-only scan) instead of the table's pages; a staff
-- member's search counts the matching clients' closed bets with the owner in bets_closed_client_idx.
DROP INDEX "bets_closed_client_idx";--> statement-breakpoint
CREATE INDEX "summary_days_sums_idx" ON "summary_days" USING btree ("key","day","n","amount_cents");--> statement-breakpoint
CREATE INDEX "bets_closed_client_idx" ON "bets" USING btree ("client_id","closed_at","assigned_user_id") WHERE "bets"."status" = 'closed';