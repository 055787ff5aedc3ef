-- Issue 33: a staff member's search meets the owner inside the trigram indexes (btree_gin), an
-- admin's search counts closed bets client by client off an index, and the dashboard reads the
-- owner's running subscriptions as a range. bets_owner_description_trgm_idx replaces
-- bets_description_trgm_idx: a search by the trigrams alone uses it as well.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "bets_owner_description_trgm_idx" ON "bets" USING gin ("assigned_user_id","description" gin_trgm_ops);--> statement-breakpoint
DROP INDEX "bets_description_trgm_idx";--> statement-breakpoint
CREATE INDEX "bets_closed_client_idx" ON "bets" USING btree ("client_id","closed_at") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "clients_owner_name_phone_trgm_idx" ON "clients" USING gin ("assigned_user_id","name" gin_trgm_ops,"phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "subscriptions_owner_running_idx" ON "subscriptions" USING btree ("assigned_user_id","expires_at","created_at","id","client_id") WHERE "subscriptions"."client_id" is not null;
