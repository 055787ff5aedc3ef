CREATE TABLE "phone_languages" (
	"phone" text PRIMARY KEY NOT NULL,
	"language" text NOT NULL,
	"source" text NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_languages" ADD CONSTRAINT "phone_languages_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;