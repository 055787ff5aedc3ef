CREATE TABLE "bet4me_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"duration_days" integer NOT NULL,
	"price_cents" bigint NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bets" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"stake_cents" bigint NOT NULL,
	"description" text NOT NULL,
	"profit_cents" bigint,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_by" integer,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_by" integer,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bonus_allocations" (
	"bonus_payment_id" bigint NOT NULL,
	"bonus_id" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "bonus_allocations_bonus_payment_id_bonus_id_pk" PRIMARY KEY("bonus_payment_id","bonus_id")
);
--> statement-breakpoint
CREATE TABLE "bonus_payments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bonus_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"description" text NOT NULL,
	"source" text NOT NULL,
	"payment_id" bigint,
	"recorded_by" integer,
	"paid_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bonuses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bonuses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"bet_id" bigint NOT NULL,
	"client_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"rate_percent" integer NOT NULL,
	"earned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bonuses_bet_id_unique" UNIQUE("bet_id")
);
--> statement-breakpoint
CREATE TABLE "client_assignments" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"assigned_by" integer,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_platform_passwords" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"platform" text NOT NULL,
	"password_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"phone_hash" text NOT NULL,
	"email" text,
	"photo" text,
	"maximum_stake_cents" bigint,
	"last_login" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bet_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	CONSTRAINT "bet_categories_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "price_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"bet_category_id" integer NOT NULL,
	"medium" text NOT NULL,
	"name" text NOT NULL,
	"duration_days" integer NOT NULL,
	"price_cents" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tips_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"phone_hash" text NOT NULL,
	"created_by" integer,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tips_subscribers_phone_unique" UNIQUE("phone")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" integer,
	"subscriber_id" integer,
	"amount_cents" bigint NOT NULL,
	"kind" text NOT NULL,
	"payment_id" bigint,
	"subscription_id" bigint,
	"bonus_payment_id" bigint,
	"note" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_one_subject" CHECK (("ledger_entries"."client_id" is null) <> ("ledger_entries"."subscriber_id" is null))
);
--> statement-breakpoint
CREATE TABLE "mpesa_payments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mpesa_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"trans_id" text,
	"source" text NOT NULL,
	"transaction_type" text,
	"amount_cents" bigint,
	"bill_ref_number" text,
	"msisdn" text,
	"msisdn_kind" text DEFAULT 'unknown' NOT NULL,
	"sender_phone" text,
	"sender_name" text,
	"trans_time" timestamp with time zone,
	"business_short_code" text,
	"raw" jsonb NOT NULL,
	"status" text NOT NULL,
	"reject_reason" text,
	"client_id" integer,
	"subscriber_id" integer,
	"matched_by" text,
	"claimed_by" integer,
	"claimed_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mpesa_payments_trans_id_unique" UNIQUE("trans_id")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" integer,
	"subscriber_id" integer,
	"plan_id" integer,
	"package_id" integer,
	"bet_category_id" integer,
	"medium" text,
	"duration_days" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"payment_id" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lapsed_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	CONSTRAINT "subscriptions_one_subject" CHECK (("subscriptions"."client_id" is null) <> ("subscriptions"."subscriber_id" is null))
);
--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_allocations" ADD CONSTRAINT "bonus_allocations_bonus_payment_id_bonus_payments_id_fk" FOREIGN KEY ("bonus_payment_id") REFERENCES "public"."bonus_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_allocations" ADD CONSTRAINT "bonus_allocations_bonus_id_bonuses_id_fk" FOREIGN KEY ("bonus_id") REFERENCES "public"."bonuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_payments" ADD CONSTRAINT "bonus_payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_payments" ADD CONSTRAINT "bonus_payments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_assignments" ADD CONSTRAINT "client_assignments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_assignments" ADD CONSTRAINT "client_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_assignments" ADD CONSTRAINT "client_assignments_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_platform_passwords" ADD CONSTRAINT "client_platform_passwords_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_packages" ADD CONSTRAINT "price_packages_bet_category_id_bet_categories_id_fk" FOREIGN KEY ("bet_category_id") REFERENCES "public"."bet_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips_subscribers" ADD CONSTRAINT "tips_subscribers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_subscriber_id_tips_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."tips_subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_payment_id_mpesa_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."mpesa_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mpesa_payments" ADD CONSTRAINT "mpesa_payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mpesa_payments" ADD CONSTRAINT "mpesa_payments_subscriber_id_tips_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."tips_subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mpesa_payments" ADD CONSTRAINT "mpesa_payments_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_subscriber_id_tips_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."tips_subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_bet4me_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."bet4me_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_package_id_price_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."price_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_bet_category_id_bet_categories_id_fk" FOREIGN KEY ("bet_category_id") REFERENCES "public"."bet_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_payment_id_mpesa_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."mpesa_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bets_client_idx" ON "bets" USING btree ("client_id","opened_at");--> statement-breakpoint
CREATE INDEX "bets_status_opened_idx" ON "bets" USING btree ("status","opened_at");--> statement-breakpoint
CREATE INDEX "bets_status_closed_idx" ON "bets" USING btree ("status","closed_at");--> statement-breakpoint
CREATE INDEX "bonus_allocations_bonus_idx" ON "bonus_allocations" USING btree ("bonus_id");--> statement-breakpoint
CREATE INDEX "bonus_payments_client_idx" ON "bonus_payments" USING btree ("client_id","paid_at");--> statement-breakpoint
CREATE INDEX "bonus_payments_paid_idx" ON "bonus_payments" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "bonuses_client_idx" ON "bonuses" USING btree ("client_id","earned_at");--> statement-breakpoint
CREATE INDEX "bonuses_earned_idx" ON "bonuses" USING btree ("earned_at");--> statement-breakpoint
CREATE INDEX "client_assignments_user_idx" ON "client_assignments" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "client_platform_passwords_key" ON "client_platform_passwords" USING btree ("client_id","platform");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_phone_live_key" ON "clients" USING btree ("phone") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "clients_phone_hash_idx" ON "clients" USING btree ("phone_hash");--> statement-breakpoint
CREATE INDEX "clients_name_trgm_idx" ON "clients" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "clients_phone_trgm_idx" ON "clients" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "clients_created_at_idx" ON "clients" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "price_packages_key" ON "price_packages" USING btree ("bet_category_id","medium","duration_days");--> statement-breakpoint
CREATE INDEX "tips_subscribers_phone_hash_idx" ON "tips_subscribers" USING btree ("phone_hash");--> statement-breakpoint
CREATE INDEX "tips_subscribers_name_trgm_idx" ON "tips_subscribers" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tips_subscribers_phone_trgm_idx" ON "tips_subscribers" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tips_subscribers_joined_idx" ON "tips_subscribers" USING btree ("joined_at");--> statement-breakpoint
CREATE INDEX "ledger_client_idx" ON "ledger_entries" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "ledger_subscriber_idx" ON "ledger_entries" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "ledger_payment_idx" ON "ledger_entries" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "mpesa_payments_status_idx" ON "mpesa_payments" USING btree ("status","received_at");--> statement-breakpoint
CREATE INDEX "mpesa_payments_received_idx" ON "mpesa_payments" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "mpesa_payments_client_idx" ON "mpesa_payments" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "mpesa_payments_subscriber_idx" ON "mpesa_payments" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "mpesa_payments_sender_name_trgm_idx" ON "mpesa_payments" USING gin ("sender_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "mpesa_payments_sender_phone_idx" ON "mpesa_payments" USING btree ("sender_phone");--> statement-breakpoint
CREATE INDEX "mpesa_payments_trans_id_trgm_idx" ON "mpesa_payments" USING gin ("trans_id" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_payment_key" ON "subscriptions" USING btree ("payment_id") WHERE "subscriptions"."payment_id" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_client_idx" ON "subscriptions" USING btree ("client_id","expires_at");--> statement-breakpoint
CREATE INDEX "subscriptions_subscriber_idx" ON "subscriptions" USING btree ("subscriber_id","expires_at");--> statement-breakpoint
CREATE INDEX "subscriptions_expires_idx" ON "subscriptions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "subscriptions_created_idx" ON "subscriptions" USING btree ("created_at");