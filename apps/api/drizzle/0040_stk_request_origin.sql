ALTER TABLE "stk_requests" ADD COLUMN "origin" text;--> statement-breakpoint
CREATE INDEX "stk_requests_payment_idx" ON "stk_requests" USING btree ("payment_id") WHERE "stk_requests"."payment_id" is not null;--> statement-breakpoint
-- Pushes sent by a staff member were staff's "Request payment"; a punter's own pushes from before
-- this migration cannot be told apart (portal, USSD or SMS keyword) and keep a null origin.
UPDATE "stk_requests" SET "origin" = 'staff' WHERE "requested_by" IS NOT NULL;--> statement-breakpoint
-- The channel split now tells STK origins and Ratiba apart: the subscribers paid that way are summarised again.
INSERT INTO retention_dirty (subscriber_id)
  SELECT DISTINCT subscriber_id FROM subscriptions WHERE subscriber_id IS NOT NULL AND source IN ('stk', 'ratiba')
  ON CONFLICT (subscriber_id) DO UPDATE SET marked_at = now();
