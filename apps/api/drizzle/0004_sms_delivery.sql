ALTER TABLE "sms_messages" ADD COLUMN "priority" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "client_id" integer;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "subscriber_id" integer;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "provider_status" text;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "network_code" text;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "handed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_subscriber_id_tips_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."tips_subscribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_due_idx" ON "sms_messages" USING btree ("priority","id") WHERE "sms_messages"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "sms_claims_idx" ON "sms_messages" USING btree ("claimed_until") WHERE "sms_messages"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "sms_recipient_trgm_idx" ON "sms_messages" USING gin ("recipient" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sms_client_idx" ON "sms_messages" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "sms_subscriber_idx" ON "sms_messages" USING btree ("subscriber_id");