ALTER TABLE "bets" ADD COLUMN "assigned_user_id" integer;--> statement-breakpoint
ALTER TABLE "bonus_payments" ADD COLUMN "assigned_user_id" integer;--> statement-breakpoint
ALTER TABLE "bonuses" ADD COLUMN "assigned_user_id" integer;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "assigned_user_id" integer;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "running_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mpesa_payments" ADD COLUMN "assigned_user_id" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "assigned_user_id" integer;--> statement-breakpoint
CREATE INDEX "bets_owner_open_opened_idx" ON "bets" USING btree ("assigned_user_id","opened_at","id") WHERE "bets"."status" = 'open';--> statement-breakpoint
CREATE INDEX "bets_owner_closed_closed_idx" ON "bets" USING btree ("assigned_user_id","closed_at","id") WHERE "bets"."status" = 'closed';--> statement-breakpoint
CREATE INDEX "bonus_payments_owner_paid_idx" ON "bonus_payments" USING btree ("assigned_user_id","paid_at","id");--> statement-breakpoint
CREATE INDEX "bonuses_owner_earned_idx" ON "bonuses" USING btree ("assigned_user_id","earned_at","id");--> statement-breakpoint
CREATE INDEX "bonuses_owner_unpaid_earned_idx" ON "bonuses" USING btree ("assigned_user_id","earned_at","id") WHERE "bonuses"."paid_cents" < "bonuses"."amount_cents";--> statement-breakpoint
CREATE INDEX "clients_live_name_running_idx" ON "clients" USING btree ("name","id","running_until") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "clients_live_running_idx" ON "clients" USING btree ("running_until") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "clients_owner_created_idx" ON "clients" USING btree ("assigned_user_id","created_at","id") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "clients_owner_name_idx" ON "clients" USING btree ("assigned_user_id","name","id","running_until") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "clients_owner_running_idx" ON "clients" USING btree ("assigned_user_id","running_until") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "mpesa_payments_owner_paid_idx" ON "mpesa_payments" USING btree ("assigned_user_id","paid_at","id") WHERE "mpesa_payments"."assigned_user_id" is not null;--> statement-breakpoint
CREATE INDEX "mpesa_payments_waiting_account_idx" ON "mpesa_payments" USING btree (upper(regexp_replace(coalesce("bill_ref_number", ''), '[\s-]+', '', 'g')) text_pattern_ops) WHERE "mpesa_payments"."status" = 'unclaimed' and "mpesa_payments"."client_id" is null and "mpesa_payments"."subscriber_id" is null;--> statement-breakpoint
CREATE INDEX "subscriptions_owner_created_idx" ON "subscriptions" USING btree ("assigned_user_id","created_at","id") WHERE "subscriptions"."assigned_user_id" is not null;--> statement-breakpoint

-- Staff scope by owner column (docs/decisions/026-staff-scope.md). Every client-owned row a staff list reads
-- carries its client's staff member in assigned_user_id; clients.running_until is the client's latest
-- Bet4Me expiry. Both are kept by the triggers below, in the transaction that writes the row or the assignment.

-- The backfill rewrites rows without changing any figure: the summaries' update triggers are held off meanwhile.
ALTER TABLE "clients" DISABLE TRIGGER "clients_summary_upd";--> statement-breakpoint
ALTER TABLE "bets" DISABLE TRIGGER "bets_summary_upd";--> statement-breakpoint
ALTER TABLE "bonuses" DISABLE TRIGGER "bonuses_summary_upd";--> statement-breakpoint
ALTER TABLE "bonus_payments" DISABLE TRIGGER "bonus_payments_summary_upd";--> statement-breakpoint
ALTER TABLE "subscriptions" DISABLE TRIGGER "subscriptions_summary_upd";--> statement-breakpoint
ALTER TABLE "mpesa_payments" DISABLE TRIGGER "mpesa_payments_summary_upd";--> statement-breakpoint
UPDATE "clients" c SET "assigned_user_id" = a."user_id" FROM "client_assignments" a WHERE a."client_id" = c."id";--> statement-breakpoint
UPDATE "clients" c SET "running_until" = s."until"
  FROM (SELECT "client_id", max("expires_at") AS "until" FROM "subscriptions" WHERE "client_id" IS NOT NULL GROUP BY "client_id") s
 WHERE s."client_id" = c."id";--> statement-breakpoint
UPDATE "bets" t SET "assigned_user_id" = a."user_id" FROM "client_assignments" a WHERE a."client_id" = t."client_id";--> statement-breakpoint
UPDATE "bonuses" t SET "assigned_user_id" = a."user_id" FROM "client_assignments" a WHERE a."client_id" = t."client_id";--> statement-breakpoint
UPDATE "bonus_payments" t SET "assigned_user_id" = a."user_id" FROM "client_assignments" a WHERE a."client_id" = t."client_id";--> statement-breakpoint
UPDATE "subscriptions" t SET "assigned_user_id" = a."user_id" FROM "client_assignments" a WHERE a."client_id" = t."client_id";--> statement-breakpoint
UPDATE "mpesa_payments" t SET "assigned_user_id" = a."user_id" FROM "client_assignments" a WHERE a."client_id" = t."client_id";--> statement-breakpoint
ALTER TABLE "clients" ENABLE TRIGGER "clients_summary_upd";--> statement-breakpoint
ALTER TABLE "bets" ENABLE TRIGGER "bets_summary_upd";--> statement-breakpoint
ALTER TABLE "bonuses" ENABLE TRIGGER "bonuses_summary_upd";--> statement-breakpoint
ALTER TABLE "bonus_payments" ENABLE TRIGGER "bonus_payments_summary_upd";--> statement-breakpoint
ALTER TABLE "subscriptions" ENABLE TRIGGER "subscriptions_summary_upd";--> statement-breakpoint
ALTER TABLE "mpesa_payments" ENABLE TRIGGER "mpesa_payments_summary_upd";--> statement-breakpoint

-- A new (or re-claimed) row takes its client's staff member. FOR SHARE waits for a reassignment of that client in
-- flight (it updates the client row first) and then reads the new owner, so no row is left with the old one.
CREATE OR REPLACE FUNCTION take_client_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.client_id IS NULL THEN
    NEW.assigned_user_id := NULL;
  ELSE
    SELECT c.assigned_user_id INTO NEW.assigned_user_id FROM clients c WHERE c.id = NEW.client_id FOR SHARE;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER bets_take_owner BEFORE INSERT OR UPDATE OF client_id ON bets FOR EACH ROW EXECUTE FUNCTION take_client_owner();--> statement-breakpoint
CREATE TRIGGER bonuses_take_owner BEFORE INSERT OR UPDATE OF client_id ON bonuses FOR EACH ROW EXECUTE FUNCTION take_client_owner();--> statement-breakpoint
CREATE TRIGGER bonus_payments_take_owner BEFORE INSERT OR UPDATE OF client_id ON bonus_payments FOR EACH ROW EXECUTE FUNCTION take_client_owner();--> statement-breakpoint
CREATE TRIGGER subscriptions_take_owner BEFORE INSERT OR UPDATE OF client_id ON subscriptions FOR EACH ROW EXECUTE FUNCTION take_client_owner();--> statement-breakpoint
CREATE TRIGGER mpesa_payments_take_owner BEFORE INSERT OR UPDATE OF client_id ON mpesa_payments FOR EACH ROW EXECUTE FUNCTION take_client_owner();--> statement-breakpoint

-- The summaries read neither assigned_user_id nor running_until, so an update that only moves those (flagged by
-- betdesk.owner_move for the statement) changes no summary: summarise_rows skips it instead of netting every row to zero.
CREATE OR REPLACE FUNCTION summarise_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  fn text := TG_ARGV[0];
  changes text;
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('betdesk.owner_move', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    changes := format('SELECT s.* FROM new_rows r, LATERAL %I(r) s', fn);
  ELSIF TG_OP = 'DELETE' THEN
    changes := format('SELECT s.key, s.day, -s.n, -s.amount_cents FROM old_rows r, LATERAL %I(r) s', fn);
  ELSE
    changes := format('SELECT s.* FROM new_rows r, LATERAL %I(r) s
                       UNION ALL SELECT s.key, s.day, -s.n, -s.amount_cents FROM old_rows r, LATERAL %I(r) s', fn, fn);
  END IF;
  EXECUTE format(
    'INSERT INTO summary_deltas (key, day, n, amount_cents)
     SELECT c.key, c.day, sum(c.n), sum(c.amount_cents) FROM (%s) AS c (key, day, n, amount_cents)
      GROUP BY c.key, c.day HAVING sum(c.n) <> 0 OR sum(c.amount_cents) <> 0', changes);
  RETURN NULL;
END $$;--> statement-breakpoint

-- Assigning, reassigning or dropping a client moves its rows to the new owner: one indexed update per table over
-- that client's rows only (client_id indexes), the client row first (see take_client_owner).
CREATE OR REPLACE FUNCTION move_client_rows(cid integer, owner integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('betdesk.owner_move', 'on', true);
  UPDATE clients SET assigned_user_id = owner WHERE id = cid AND assigned_user_id IS DISTINCT FROM owner;
  UPDATE bets SET assigned_user_id = owner WHERE client_id = cid AND assigned_user_id IS DISTINCT FROM owner;
  UPDATE bonuses SET assigned_user_id = owner WHERE client_id = cid AND assigned_user_id IS DISTINCT FROM owner;
  UPDATE bonus_payments SET assigned_user_id = owner WHERE client_id = cid AND assigned_user_id IS DISTINCT FROM owner;
  UPDATE subscriptions SET assigned_user_id = owner WHERE client_id = cid AND assigned_user_id IS DISTINCT FROM owner;
  UPDATE mpesa_payments SET assigned_user_id = owner WHERE client_id = cid AND assigned_user_id IS DISTINCT FROM owner;
  PERFORM set_config('betdesk.owner_move', 'off', true);
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION client_assignment_moves_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM move_client_rows(OLD.client_id, NULL);
  ELSE
    IF TG_OP = 'UPDATE' AND OLD.client_id <> NEW.client_id THEN
      PERFORM move_client_rows(OLD.client_id, NULL);
    END IF;
    PERFORM move_client_rows(NEW.client_id, NEW.user_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER client_assignments_move_rows AFTER INSERT OR UPDATE OR DELETE ON client_assignments
  FOR EACH ROW EXECUTE FUNCTION client_assignment_moves_rows();--> statement-breakpoint

-- clients.running_until: the latest expiry of the client's subscriptions (subscriptions_client_idx), kept as they change.
CREATE OR REPLACE FUNCTION client_running_until(cid integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('betdesk.owner_move', 'on', true);
  UPDATE clients c SET running_until = s.until
    FROM (SELECT max(expires_at) AS until FROM subscriptions WHERE client_id = cid) s
   WHERE c.id = cid AND c.running_until IS DISTINCT FROM s.until;
  PERFORM set_config('betdesk.owner_move', 'off', true);
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION subscription_moves_running_until() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.client_id IS NOT NULL THEN
    PERFORM client_running_until(OLD.client_id);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.client_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.client_id IS DISTINCT FROM OLD.client_id) THEN
    PERFORM client_running_until(NEW.client_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER subscriptions_running_until AFTER INSERT OR DELETE OR UPDATE OF expires_at, client_id ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION subscription_moves_running_until();
