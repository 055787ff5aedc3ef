CREATE TABLE "money_checks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "money_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ok" boolean NOT NULL,
	"failures" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mpesa_pull_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mpesa_pull_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"window_from" timestamp with time zone NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"pages" integer DEFAULT 0 NOT NULL,
	"rows_seen" integer DEFAULT 0 NOT NULL,
	"rows_recovered" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "mpesa_statement_rows" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mpesa_statement_rows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"statement_id" bigint NOT NULL,
	"line" integer NOT NULL,
	"receipt" text NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"initiated_at" timestamp with time zone,
	"details" text,
	"transaction_status" text,
	"kind" text NOT NULL,
	"paid_in_cents" bigint NOT NULL,
	"withdrawn_cents" bigint NOT NULL,
	"balance_cents" bigint,
	"reason_type" text,
	"other_party_info" text,
	"linked_transaction_id" text,
	"account_no" text
);
--> statement-breakpoint
CREATE TABLE "mpesa_statements" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mpesa_statements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"file_hash" text NOT NULL,
	"file_name" text,
	"period_from" timestamp with time zone NOT NULL,
	"period_to" timestamp with time zone NOT NULL,
	"row_count" integer NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mpesa_statements_file_hash_unique" UNIQUE("file_hash")
);
--> statement-breakpoint
ALTER TABLE "mpesa_statement_rows" ADD CONSTRAINT "mpesa_statement_rows_statement_id_mpesa_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."mpesa_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mpesa_statements" ADD CONSTRAINT "mpesa_statements_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "money_checks_ran_idx" ON "money_checks" USING btree ("ran_at");--> statement-breakpoint
CREATE INDEX "mpesa_pull_runs_started_idx" ON "mpesa_pull_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "mpesa_statement_rows_kind_idx" ON "mpesa_statement_rows" USING btree ("statement_id","kind","completed_at");--> statement-breakpoint
CREATE INDEX "mpesa_statement_rows_receipt_idx" ON "mpesa_statement_rows" USING btree ("statement_id","receipt");--> statement-breakpoint
CREATE INDEX "mpesa_statements_period_idx" ON "mpesa_statements" USING btree ("period_from","period_to");