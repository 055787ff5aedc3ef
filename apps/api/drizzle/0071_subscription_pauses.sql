-- Decision 090: a pause of a weekly or monthly tips subscription, once per subscription. Its end
-- moved by the days paused; no tips go to its category and medium while it runs; a later sale of
-- the same category and medium (created_at >= ends_at) is the sale after the pause.
CREATE TABLE IF NOT EXISTS "subscription_pauses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"subscription_id" bigint NOT NULL REFERENCES "subscriptions"("id"),
	"subscriber_id" integer NOT NULL REFERENCES "tips_subscribers"("id"),
	"bet_category_id" integer REFERENCES "bet_categories"("id"),
	"medium" text,
	"days" integer NOT NULL CHECK ("days" > 0),
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"expires_before" timestamp with time zone NOT NULL,
	"expires_after" timestamp with time zone NOT NULL,
	"standing_order_id" bigint REFERENCES "standing_orders"("id"),
	"standing_order_next_before" date,
	"standing_order_next_after" date,
	"via" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "subscription_pauses_subscription_key" ON "subscription_pauses" USING btree ("subscription_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscription_pauses_subscriber_idx" ON "subscription_pauses" USING btree ("subscriber_id","ends_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscription_pauses_ends_idx" ON "subscription_pauses" USING btree ("ends_at");
