-- A safeguard for customers (self-exclusion, the age gate, the advertising rules) is turned off only
-- with a reason, kept beside its value (decision 065).
ALTER TABLE "settings" ADD COLUMN IF NOT EXISTS "reason" text;
