DROP INDEX "audit_entity_idx";--> statement-breakpoint
DROP INDEX "audit_at_idx";--> statement-breakpoint
CREATE INDEX "audit_at_id_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entity_at_idx" ON "audit_log" USING btree ("entity","entity_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_actor_at_idx" ON "audit_log" USING btree ("actor_user_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_action_at_idx" ON "audit_log" USING btree ("action","at" DESC NULLS LAST,"id" DESC NULLS LAST);