-- Decision 056: admin rights given through the web wait for a second admin's approval; every grant is
-- a row, so the two-person rule can follow who asked for and who approved whose admin rights.
CREATE TABLE "admin_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"requested_by" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"effective_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "admin_grants" ADD CONSTRAINT "admin_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_grants" ADD CONSTRAINT "admin_grants_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_grants" ADD CONSTRAINT "admin_grants_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_grants_one_pending_key" ON "admin_grants" USING btree ("user_id") WHERE "admin_grants"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "admin_grants_user_idx" ON "admin_grants" USING btree ("user_id","id");--> statement-breakpoint
-- Today's admins keep their rights. Who made each one an admin is read from the audit trail: one made
-- through the web keeps that admin as its requester (so an account made alone before this rule still
-- cannot approve its maker's refunds) and counts its cooling-off from then; the first boot and the
-- operator's CLI (no actor) are the operator's; an admin older than the trail is one before grants.
INSERT INTO "admin_grants" ("user_id", "kind", "status", "requested_by", "requested_at", "effective_at")
SELECT u.id,
  CASE WHEN made.at IS NULL THEN 'before_grants'
       WHEN made.actor_user_id IS NULL THEN 'operator'
       WHEN made.action = 'user.create' THEN 'new_user'
       ELSE 'promotion' END,
  'approved', made.actor_user_id, coalesce(made.at, u.created_at), coalesce(made.at, u.created_at)
FROM "users" u
LEFT JOIN LATERAL (
  SELECT a.action, a.actor_user_id, a.at FROM "audit_log" a
  WHERE a.entity = 'user' AND a.entity_id = u.id::text
    AND ((a.action = 'user.create' AND a.after->>'category_id' = '1')
      OR (a.action = 'user.update' AND a.after->>'categoryId' = '1' AND a.before->>'categoryId' IS DISTINCT FROM '1'))
  ORDER BY a.at DESC, a.id DESC
  LIMIT 1
) made ON true
WHERE u.deleted_at IS NULL AND u.category_id = 1;
