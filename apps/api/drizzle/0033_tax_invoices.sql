CREATE TABLE "tax_device" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"tin" text,
	"branch_id" text DEFAULT '00' NOT NULL,
	"device_serial" text,
	"vat_registered" boolean DEFAULT false NOT NULL,
	"base_url" text,
	"cmc_key_sealed" text,
	"sdc_id" text,
	"mrc_no" text,
	"initialised_at" timestamp with time zone,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_device_one_row" CHECK ("tax_device"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "tax_invoice_counters" (
	"branch_id" text PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_invoices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tax_invoices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"branch_id" text NOT NULL,
	"number" integer NOT NULL,
	"original_id" bigint,
	"cause" text,
	"payment_id" bigint,
	"subscription_id" bigint,
	"item_code" text NOT NULL,
	"item_name" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"tax_type" text NOT NULL,
	"tax_cents" bigint NOT NULL,
	"buyer_phone" text,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kra_receipt_number" integer,
	"kra_total_receipt_number" integer,
	"kra_internal_data" text,
	"kra_signature" text,
	"kra_sdc_id" text,
	"kra_sdc_time" text,
	"sent_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_invoices_credit_has_original" CHECK (("tax_invoices"."kind" = 'invoice') = ("tax_invoices"."original_id" is null and "tax_invoices"."cause" is null))
);
--> statement-breakpoint
CREATE TABLE "tax_items" (
	"item_code" text NOT NULL,
	"branch_id" text NOT NULL,
	"name" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"tax_type" text NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_items_branch_id_item_code_pk" PRIMARY KEY("branch_id","item_code")
);
--> statement-breakpoint
ALTER TABLE "tax_device" ADD CONSTRAINT "tax_device_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD CONSTRAINT "tax_invoices_payment_id_mpesa_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."mpesa_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD CONSTRAINT "tax_invoices_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD CONSTRAINT "tax_invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_invoices_branch_number_idx" ON "tax_invoices" USING btree ("branch_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_invoices_sale_idx" ON "tax_invoices" USING btree ("subscription_id") WHERE "tax_invoices"."kind" = 'invoice';--> statement-breakpoint
CREATE INDEX "tax_invoices_created_idx" ON "tax_invoices" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tax_invoices_due_idx" ON "tax_invoices" USING btree ("next_attempt_at") WHERE "tax_invoices"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "tax_invoices_payment_idx" ON "tax_invoices" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "tax_invoices_original_idx" ON "tax_invoices" USING btree ("original_id");