CREATE TABLE "tip_selections" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"position" integer NOT NULL,
	"home" text NOT NULL,
	"away" text NOT NULL,
	"competition" text NOT NULL,
	"kickoff_at" timestamp with time zone NOT NULL,
	"market" text NOT NULL,
	"pick" text NOT NULL,
	"odds_hundredths" integer NOT NULL,
	"result" text,
	"result_at" timestamp with time zone,
	"result_by" integer,
	CONSTRAINT "tip_selections_odds_above_one" CHECK ("tip_selections"."odds_hundredths" > 100),
	CONSTRAINT "tip_selections_result_known" CHECK ("tip_selections"."result" is null or "tip_selections"."result" in ('won', 'lost', 'void', 'half_won', 'half_lost'))
);
--> statement-breakpoint
CREATE TABLE "tip_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"bet_category_id" integer NOT NULL,
	"match_date" date NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_kickoff_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "tips_posts" ADD COLUMN "attach_ticket" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tip_selections" ADD CONSTRAINT "tip_selections_ticket_id_tip_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tip_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tip_selections" ADD CONSTRAINT "tip_selections_result_by_users_id_fk" FOREIGN KEY ("result_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tip_tickets" ADD CONSTRAINT "tip_tickets_bet_category_id_bet_categories_id_fk" FOREIGN KEY ("bet_category_id") REFERENCES "public"."bet_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tip_tickets" ADD CONSTRAINT "tip_tickets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tip_tickets" ADD CONSTRAINT "tip_tickets_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tip_selections_ticket_idx" ON "tip_selections" USING btree ("ticket_id","position");--> statement-breakpoint
CREATE INDEX "tip_selections_awaiting_idx" ON "tip_selections" USING btree ("kickoff_at","id") WHERE "tip_selections"."result" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tip_tickets_category_day_idx" ON "tip_tickets" USING btree ("bet_category_id","match_date");--> statement-breakpoint
CREATE INDEX "tip_tickets_match_date_idx" ON "tip_tickets" USING btree ("match_date","id");