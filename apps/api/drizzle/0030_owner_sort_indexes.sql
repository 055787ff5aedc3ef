CREATE INDEX "bets_owner_open_stake_idx" ON "bets" USING btree ("assigned_user_id","stake_cents","id") WHERE "bets"."status" = 'open';--> statement-breakpoint
CREATE INDEX "bets_owner_closed_opened_idx" ON "bets" USING btree ("assigned_user_id","opened_at","id") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "bets_owner_closed_stake_idx" ON "bets" USING btree ("assigned_user_id","stake_cents","id") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "bets_owner_closed_profit_idx" ON "bets" USING btree ("assigned_user_id","profit_cents","id") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "bonus_payments_owner_amount_idx" ON "bonus_payments" USING btree ("assigned_user_id","amount_cents","id");--> statement-breakpoint
CREATE INDEX "bonuses_owner_amount_idx" ON "bonuses" USING btree ("assigned_user_id","amount_cents","id");--> statement-breakpoint
CREATE INDEX "bonuses_owner_unpaid_amount_idx" ON "bonuses" USING btree ("assigned_user_id","amount_cents","id") WHERE "bonuses"."paid_cents" < "bonuses"."amount_cents";--> statement-breakpoint
CREATE INDEX "mpesa_payments_owner_amount_idx" ON "mpesa_payments" USING btree ("assigned_user_id","amount_cents","id") WHERE "mpesa_payments"."assigned_user_id" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_owner_amount_idx" ON "subscriptions" USING btree ("assigned_user_id","amount_cents","id") WHERE "subscriptions"."assigned_user_id" is not null;