CREATE TABLE "ussd_purchases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ussd_purchases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"phone" text NOT NULL,
	"package_id" integer NOT NULL,
	"status" text NOT NULL,
	"stk_request_id" bigint,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "ussd_purchases_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
ALTER TABLE "ussd_purchases" ADD CONSTRAINT "ussd_purchases_package_id_price_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."price_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ussd_purchases" ADD CONSTRAINT "ussd_purchases_stk_request_id_stk_requests_id_fk" FOREIGN KEY ("stk_request_id") REFERENCES "public"."stk_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ussd_purchases_queued_idx" ON "ussd_purchases" USING btree ("created_at","id") WHERE "ussd_purchases"."status" = 'queued';