ALTER TABLE "sms_messages" ADD COLUMN "failure_cause" text;--> statement-breakpoint
ALTER TABLE "mpesa_payments" ADD COLUMN "warning" text;--> statement-breakpoint
CREATE INDEX "sms_failure_cause_idx" ON "sms_messages" USING btree ("failure_cause","id") WHERE "sms_messages"."failure_cause" is not null;