CREATE TABLE "broadcasts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "broadcasts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"idempotency_key" text NOT NULL,
	"segment" text NOT NULL,
	"bet_category_id" integer,
	"lapsed_days" integer,
	"body" text NOT NULL,
	"recipients" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcasts_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "sms_inbound" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sms_inbound_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"provider_id" text NOT NULL,
	"phone" text NOT NULL,
	"to_code" text,
	"text" text NOT NULL,
	"link_id" text,
	"network_code" text,
	"provider_date" text,
	"subscriber_id" integer,
	"client_id" integer,
	"keyword" text NOT NULL,
	"action" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_inbound_provider_id_unique" UNIQUE("provider_id")
);
--> statement-breakpoint
CREATE TABLE "sms_opt_out_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sms_opt_out_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"phone" text NOT NULL,
	"scope" text NOT NULL,
	"action" text NOT NULL,
	"source" text NOT NULL,
	"reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_opt_outs" (
	"phone" text NOT NULL,
	"scope" text NOT NULL,
	"bet_category_id" integer,
	"source" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_opt_outs_phone_scope_pk" PRIMARY KEY("phone","scope")
);
--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "sms_class" text DEFAULT 'transactional' NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "broadcast_id" bigint;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_bet_category_id_bet_categories_id_fk" FOREIGN KEY ("bet_category_id") REFERENCES "public"."bet_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_inbound" ADD CONSTRAINT "sms_inbound_subscriber_id_tips_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."tips_subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_inbound" ADD CONSTRAINT "sms_inbound_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_opt_out_events" ADD CONSTRAINT "sms_opt_out_events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_opt_outs" ADD CONSTRAINT "sms_opt_outs_bet_category_id_bet_categories_id_fk" FOREIGN KEY ("bet_category_id") REFERENCES "public"."bet_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_opt_outs" ADD CONSTRAINT "sms_opt_outs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_inbound_received_idx" ON "sms_inbound" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "sms_inbound_phone_trgm_idx" ON "sms_inbound" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sms_opt_out_events_phone_idx" ON "sms_opt_out_events" USING btree ("phone","id");--> statement-breakpoint
CREATE INDEX "sms_broadcast_idx" ON "sms_messages" USING btree ("broadcast_id","status") WHERE "sms_messages"."broadcast_id" is not null;