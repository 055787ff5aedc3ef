CREATE TABLE "payment_recoveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_recoveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"stk_request_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"result_code" text NOT NULL,
	"subscriber_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"failed_request_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"note" text,
	"done_at" timestamp with time zone,
	"retry_stk_request_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_recoveries_stk_request_id_unique" UNIQUE("stk_request_id")
);
--> statement-breakpoint
ALTER TABLE "payment_recoveries" ADD CONSTRAINT "payment_recoveries_stk_request_id_stk_requests_id_fk" FOREIGN KEY ("stk_request_id") REFERENCES "public"."stk_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_recoveries" ADD CONSTRAINT "payment_recoveries_subscriber_id_tips_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."tips_subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_recoveries" ADD CONSTRAINT "payment_recoveries_package_id_price_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."price_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_recoveries" ADD CONSTRAINT "payment_recoveries_retry_stk_request_id_stk_requests_id_fk" FOREIGN KEY ("retry_stk_request_id") REFERENCES "public"."stk_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_recoveries_due_idx" ON "payment_recoveries" USING btree ("due_at") WHERE "payment_recoveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_recoveries_done_idx" ON "payment_recoveries" USING btree ("done_at") WHERE "payment_recoveries"."done_at" is not null;--> statement-breakpoint
CREATE INDEX "payment_recoveries_retry_idx" ON "payment_recoveries" USING btree ("retry_stk_request_id") WHERE "payment_recoveries"."retry_stk_request_id" is not null;