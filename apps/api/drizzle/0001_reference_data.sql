CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
INSERT INTO "user_categories" ("id", "name") VALUES (1, 'Admin'), (2, 'Agent') ON CONFLICT ("id") DO NOTHING;
