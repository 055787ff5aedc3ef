CREATE TABLE "image_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"image_name" text NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"byte_size" integer NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "image_types_image_name_unique" UNIQUE("image_name")
);
--> statement-breakpoint
CREATE TABLE "post_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "post_categories_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sms_tip_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"bet_category_id" integer NOT NULL,
	"content" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tips_post_bets" (
	"post_id" integer NOT NULL,
	"bet_category_id" integer NOT NULL,
	CONSTRAINT "tips_post_bets_post_id_bet_category_id_pk" PRIMARY KEY("post_id","bet_category_id")
);
--> statement-breakpoint
CREATE TABLE "tips_posts" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"post_category_id" integer NOT NULL,
	"image_type_id" integer,
	"match_date" date NOT NULL,
	"content" text NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "winnings_content" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"content" text NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "winnings_content_single_row" CHECK ("winnings_content"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "image_types" ADD CONSTRAINT "image_types_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_tip_versions" ADD CONSTRAINT "sms_tip_versions_bet_category_id_bet_categories_id_fk" FOREIGN KEY ("bet_category_id") REFERENCES "public"."bet_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_tip_versions" ADD CONSTRAINT "sms_tip_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips_post_bets" ADD CONSTRAINT "tips_post_bets_post_id_tips_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."tips_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips_post_bets" ADD CONSTRAINT "tips_post_bets_bet_category_id_bet_categories_id_fk" FOREIGN KEY ("bet_category_id") REFERENCES "public"."bet_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips_posts" ADD CONSTRAINT "tips_posts_post_category_id_post_categories_id_fk" FOREIGN KEY ("post_category_id") REFERENCES "public"."post_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips_posts" ADD CONSTRAINT "tips_posts_image_type_id_image_types_id_fk" FOREIGN KEY ("image_type_id") REFERENCES "public"."image_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips_posts" ADD CONSTRAINT "tips_posts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tips_posts" ADD CONSTRAINT "tips_posts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "winnings_content" ADD CONSTRAINT "winnings_content_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_tip_versions_category_idx" ON "sms_tip_versions" USING btree ("bet_category_id","id");--> statement-breakpoint
CREATE INDEX "tips_posts_live_match_date_idx" ON "tips_posts" USING btree ("match_date","id") WHERE "tips_posts"."deleted_at" is null;