DROP INDEX "client_assignments_user_idx";--> statement-breakpoint
CREATE INDEX "bonuses_unpaid_client_idx" ON "bonuses" USING btree ("client_id") WHERE "bonuses"."paid_cents" < "bonuses"."amount_cents";--> statement-breakpoint
CREATE INDEX "client_assignments_user_idx" ON "client_assignments" USING btree ("user_id","client_id");