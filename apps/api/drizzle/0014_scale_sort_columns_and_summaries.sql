CREATE TABLE "summary_days" (
	"key" text NOT NULL,
	"day" date NOT NULL,
	"n" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "summary_days_key_day_pk" PRIMARY KEY("key","day")
);
--> statement-breakpoint
CREATE TABLE "summary_deltas" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "summary_deltas_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"day" date NOT NULL,
	"n" bigint NOT NULL,
	"amount_cents" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "sms_client_idx";--> statement-breakpoint
DROP INDEX "sms_subscriber_idx";--> statement-breakpoint
ALTER TABLE "bonuses" ADD COLUMN "paid_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mpesa_payments" ADD COLUMN "paid_at" timestamp with time zone GENERATED ALWAYS AS (coalesce(trans_time, received_at)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "summary_deltas_key_day_idx" ON "summary_deltas" USING btree ("key","day");--> statement-breakpoint
CREATE INDEX "sms_created_idx" ON "sms_messages" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "bets_open_opened_idx" ON "bets" USING btree ("opened_at","id") WHERE "bets"."status" = 'open';--> statement-breakpoint
CREATE INDEX "bets_open_stake_idx" ON "bets" USING btree ("stake_cents","id") WHERE "bets"."status" = 'open';--> statement-breakpoint
CREATE INDEX "bets_closed_closed_idx" ON "bets" USING btree ("closed_at","id") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "bets_closed_opened_idx" ON "bets" USING btree ("opened_at","id") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "bets_closed_stake_idx" ON "bets" USING btree ("stake_cents","id") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "bets_closed_profit_idx" ON "bets" USING btree ("profit_cents","id") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "bonus_payments_paid_id_idx" ON "bonus_payments" USING btree ("paid_at","id");--> statement-breakpoint
CREATE INDEX "bonus_payments_amount_idx" ON "bonus_payments" USING btree ("amount_cents","id");--> statement-breakpoint
CREATE INDEX "bonuses_earned_id_idx" ON "bonuses" USING btree ("earned_at","id");--> statement-breakpoint
CREATE INDEX "bonuses_amount_idx" ON "bonuses" USING btree ("amount_cents","id");--> statement-breakpoint
CREATE INDEX "bonuses_unpaid_earned_idx" ON "bonuses" USING btree ("earned_at","id") WHERE "bonuses"."paid_cents" < "bonuses"."amount_cents";--> statement-breakpoint
CREATE INDEX "bonuses_unpaid_amount_idx" ON "bonuses" USING btree ("amount_cents","id") WHERE "bonuses"."paid_cents" < "bonuses"."amount_cents";--> statement-breakpoint
CREATE INDEX "clients_live_created_idx" ON "clients" USING btree ("created_at","id") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "clients_live_name_idx" ON "clients" USING btree ("name","id") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "tips_subscribers_joined_id_idx" ON "tips_subscribers" USING btree ("joined_at","id");--> statement-breakpoint
CREATE INDEX "tips_subscribers_name_idx" ON "tips_subscribers" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "mpesa_payments_paid_idx" ON "mpesa_payments" USING btree ("paid_at","id");--> statement-breakpoint
CREATE INDEX "mpesa_payments_status_paid_idx" ON "mpesa_payments" USING btree ("status","paid_at","id");--> statement-breakpoint
CREATE INDEX "mpesa_payments_amount_idx" ON "mpesa_payments" USING btree ("amount_cents","id");--> statement-breakpoint
CREATE INDEX "mpesa_payments_status_amount_idx" ON "mpesa_payments" USING btree ("status","amount_cents","id");--> statement-breakpoint
CREATE INDEX "subscriptions_client_created_idx" ON "subscriptions" USING btree ("created_at","id") WHERE "subscriptions"."client_id" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_subscriber_created_idx" ON "subscriptions" USING btree ("created_at","id") WHERE "subscriptions"."subscriber_id" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_client_amount_idx" ON "subscriptions" USING btree ("amount_cents","id") WHERE "subscriptions"."client_id" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_subscriber_expires_idx" ON "subscriptions" USING btree ("expires_at","id") WHERE "subscriptions"."subscriber_id" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_client_history_idx" ON "subscriptions" USING btree ("client_id","created_at","id") WHERE "subscriptions"."client_id" is not null;--> statement-breakpoint
CREATE INDEX "sms_client_idx" ON "sms_messages" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "sms_subscriber_idx" ON "sms_messages" USING btree ("subscriber_id","id");