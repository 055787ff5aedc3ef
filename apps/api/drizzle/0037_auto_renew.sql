CREATE TABLE "standing_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "standing_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subscriber_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"subscription_id" bigint,
	"phone" text NOT NULL,
	"name" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"frequency" text NOT NULL,
	"account_reference" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"next_date" date NOT NULL,
	"status" text NOT NULL,
	"response_ref_id" text,
	"result_code" text,
	"result_desc" text,
	"missed_date" date,
	"last_payment_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"stopped_by" integer,
	CONSTRAINT "standing_orders_name_unique" UNIQUE("name"),
	CONSTRAINT "standing_orders_response_ref_id_unique" UNIQUE("response_ref_id")
);
--> statement-breakpoint
ALTER TABLE "standing_orders" ADD CONSTRAINT "standing_orders_subscriber_id_tips_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."tips_subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standing_orders" ADD CONSTRAINT "standing_orders_package_id_price_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."price_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standing_orders" ADD CONSTRAINT "standing_orders_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standing_orders" ADD CONSTRAINT "standing_orders_stopped_by_users_id_fk" FOREIGN KEY ("stopped_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "standing_orders_live_idx" ON "standing_orders" USING btree ("subscriber_id","package_id") WHERE "standing_orders"."status" in ('requested', 'pending', 'active');--> statement-breakpoint
CREATE INDEX "standing_orders_subscriber_idx" ON "standing_orders" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "standing_orders_due_idx" ON "standing_orders" USING btree ("next_date") WHERE "standing_orders"."status" = 'active';--> statement-breakpoint
CREATE INDEX "standing_orders_requested_idx" ON "standing_orders" USING btree ("created_at") WHERE "standing_orders"."status" = 'requested';