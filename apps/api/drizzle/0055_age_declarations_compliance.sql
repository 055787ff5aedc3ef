-- The 18+ declaration made before a phone's first purchase, and the compliance calendar's items
-- (decision 060).
CREATE TABLE IF NOT EXISTS "age_declarations" (
	"phone" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"declared_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "compliance_items" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"issued_on" date,
	"expires_on" date,
	"note" text,
	"updated_by" integer REFERENCES "users"("id"),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
