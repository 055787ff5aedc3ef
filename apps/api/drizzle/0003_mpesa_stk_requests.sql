CREATE TABLE "stk_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stk_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_request_id" text,
	"checkout_request_id" text,
	"purpose" text NOT NULL,
	"client_id" integer,
	"subscriber_id" integer,
	"package_id" integer,
	"plan_id" integer,
	"phone" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"account_reference" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"result_code" text,
	"result_desc" text,
	"payment_id" bigint,
	"requested_by" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"queried_at" timestamp with time zone,
	"query_attempts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stk_requests_checkout_request_id_unique" UNIQUE("checkout_request_id"),
	CONSTRAINT "stk_requests_one_subject" CHECK (("stk_requests"."client_id" is null) <> ("stk_requests"."subscriber_id" is null))
);
--> statement-breakpoint
ALTER TABLE "stk_requests" ADD CONSTRAINT "stk_requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stk_requests" ADD CONSTRAINT "stk_requests_subscriber_id_tips_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."tips_subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stk_requests" ADD CONSTRAINT "stk_requests_package_id_price_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."price_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stk_requests" ADD CONSTRAINT "stk_requests_plan_id_bet4me_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."bet4me_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stk_requests" ADD CONSTRAINT "stk_requests_payment_id_mpesa_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."mpesa_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stk_requests" ADD CONSTRAINT "stk_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stk_requests_status_idx" ON "stk_requests" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "stk_requests_client_idx" ON "stk_requests" USING btree ("client_id","requested_at");--> statement-breakpoint
CREATE INDEX "stk_requests_subscriber_idx" ON "stk_requests" USING btree ("subscriber_id","requested_at");