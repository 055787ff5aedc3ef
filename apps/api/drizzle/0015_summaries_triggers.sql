-- Summaries kept by triggers (docs/decisions/015-scale-summaries.md).
-- Keys are compared by prefix ('payment:claimed:%'), so they sort byte-wise and the primary key serves the prefix.
ALTER TABLE "summary_days" ALTER COLUMN "key" TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "summary_deltas" ALTER COLUMN "key" TYPE text COLLATE "C";--> statement-breakpoint

-- The business day of an instant.
CREATE OR REPLACE FUNCTION nairobi_day(at timestamptz) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (at AT TIME ZONE 'Africa/Nairobi')::date $$;--> statement-breakpoint

-- What one row adds to the summaries: (key, day, n, amount_cents). Each is STRICT: besides saying that a
-- missing row adds nothing, it keeps PostgreSQL from inlining the function into the trigger's lateral join,
-- which its planner cannot do over a transition table.
CREATE OR REPLACE FUNCTION payment_summary(p mpesa_payments)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  SELECT 'payment:' || p.status || ':'
           || CASE WHEN p.client_id IS NOT NULL THEN 'client' WHEN p.subscriber_id IS NOT NULL THEN 'subscriber' ELSE 'none' END
           || ':' || p.source,
         nairobi_day(coalesce(p.trans_time, p.received_at)), 1::bigint, coalesce(p.amount_cents, 0)::bigint
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION bet_summary(b bets)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  SELECT 'bet:opened:' || coalesce(b.opened_by, 0), nairobi_day(b.opened_at), 1::bigint, b.stake_cents::bigint
  UNION ALL
  SELECT 'bet:open:' || coalesce(b.opened_by, 0), nairobi_day(b.opened_at), 1, b.stake_cents
   WHERE b.status = 'open'
  UNION ALL
  SELECT 'bet:closed:' || coalesce(b.opened_by, 0), nairobi_day(coalesce(b.closed_at, b.opened_at)), 1, b.stake_cents
   WHERE b.status = 'closed'
  UNION ALL
  SELECT 'bet:profit:' || coalesce(b.opened_by, 0), nairobi_day(coalesce(b.closed_at, b.opened_at)), 1, coalesce(b.profit_cents, 0)
   WHERE b.status = 'closed'
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION bonus_summary(b bonuses)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  WITH owner AS (SELECT coalesce((SELECT opened_by FROM bets WHERE id = b.bet_id), 0) AS staff)
  SELECT 'bonus:earned:' || staff, nairobi_day(b.earned_at), 1::bigint, b.amount_cents::bigint FROM owner
  UNION ALL
  SELECT 'bonus:paid:' || staff, nairobi_day(b.earned_at), (b.paid_cents > 0)::int::bigint, b.paid_cents FROM owner
  UNION ALL
  SELECT 'bonus:unpaid:' || staff, nairobi_day(b.earned_at), 1, b.amount_cents - b.paid_cents FROM owner
   WHERE b.paid_cents < b.amount_cents
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION bonus_payment_summary(p bonus_payments)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  SELECT 'bonus_payment', nairobi_day(p.paid_at), 1::bigint, p.amount_cents::bigint
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION subscription_summary(s subscriptions)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  SELECT CASE
           WHEN s.reversed_at IS NOT NULL
             THEN 'subscription_reversed:' || CASE WHEN s.client_id IS NOT NULL THEN 'client' ELSE 'subscriber' END
           WHEN s.client_id IS NOT NULL THEN 'subscription:client:' || coalesce(s.plan_id, 0)
           ELSE 'subscription:subscriber:' || coalesce(s.bet_category_id, 0) || ':' || coalesce(s.medium, '-')
         END,
         nairobi_day(s.created_at), 1::bigint, s.amount_cents::bigint
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION client_summary(c clients)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  SELECT 'client', nairobi_day(c.created_at), 1::bigint, 0::bigint WHERE c.deleted_at IS NULL
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION tips_subscriber_summary(s tips_subscribers)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  SELECT 'tips_subscriber', nairobi_day(s.joined_at), 1::bigint, 0::bigint
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION sms_summary(m sms_messages)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  SELECT 'sms:' || m.status, nairobi_day(m.created_at), 1::bigint, 0::bigint
$$;--> statement-breakpoint

-- Which function summarises which table: the triggers, refresh_summaries() and the tests read this one list.
CREATE OR REPLACE FUNCTION summarised_tables() RETURNS TABLE (table_name text, summary_fn text)
  LANGUAGE sql IMMUTABLE AS $$
  VALUES ('mpesa_payments', 'payment_summary'), ('bets', 'bet_summary'), ('bonuses', 'bonus_summary'),
         ('bonus_payments', 'bonus_payment_summary'), ('subscriptions', 'subscription_summary'),
         ('clients', 'client_summary'), ('tips_subscribers', 'tips_subscriber_summary'), ('sms_messages', 'sms_summary')
$$;--> statement-breakpoint

-- One statement-level trigger function for every summarised table: the old rows' contribution out, the new rows'
-- in, netted per (key, day), appended to summary_deltas. Appending never waits on another transaction.
CREATE OR REPLACE FUNCTION summarise_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  fn text := TG_ARGV[0];
  changes text;
BEGIN
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

DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT * FROM summarised_tables() LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION summarise_rows(%L)', t.table_name || '_summary_ins', t.table_name, t.summary_fn);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION summarise_rows(%L)', t.table_name || '_summary_upd', t.table_name, t.summary_fn);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION summarise_rows(%L)', t.table_name || '_summary_del', t.table_name, t.summary_fn);
  END LOOP;
END $$;--> statement-breakpoint

-- bonuses.paid_cents is the sum of the bonus's allocations, kept in the allocating transaction.
CREATE OR REPLACE FUNCTION apply_bonus_allocations() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    changes := 'SELECT bonus_id, amount_cents FROM new_rows';
  ELSIF TG_OP = 'DELETE' THEN
    changes := 'SELECT bonus_id, -amount_cents FROM old_rows';
  ELSE
    changes := 'SELECT bonus_id, amount_cents FROM new_rows UNION ALL SELECT bonus_id, -amount_cents FROM old_rows';
  END IF;
  EXECUTE format(
    'UPDATE bonuses b SET paid_cents = b.paid_cents + c.paid
       FROM (SELECT a.bonus_id, sum(a.amount_cents) AS paid FROM (%s) AS a (bonus_id, amount_cents)
              GROUP BY a.bonus_id HAVING sum(a.amount_cents) <> 0) c
      WHERE b.id = c.bonus_id', changes);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER bonus_allocations_paid_ins AFTER INSERT ON bonus_allocations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apply_bonus_allocations();--> statement-breakpoint
CREATE TRIGGER bonus_allocations_paid_upd AFTER UPDATE ON bonus_allocations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apply_bonus_allocations();--> statement-breakpoint
CREATE TRIGGER bonus_allocations_paid_del AFTER DELETE ON bonus_allocations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION apply_bonus_allocations();--> statement-breakpoint

-- Folds the committed deltas into summary_days. Safe to run concurrently: a delta is deleted by one caller only.
CREATE OR REPLACE FUNCTION compact_summaries() RETURNS bigint LANGUAGE sql AS $$
  WITH moved AS (DELETE FROM summary_deltas RETURNING key, day, n, amount_cents),
  folded AS (
    INSERT INTO summary_days (key, day, n, amount_cents)
    SELECT key, day, sum(n), sum(amount_cents) FROM moved GROUP BY key, day
    ON CONFLICT (key, day) DO UPDATE
      SET n = summary_days.n + excluded.n, amount_cents = summary_days.amount_cents + excluded.amount_cents
    RETURNING 1)
  SELECT count(*) FROM moved
$$;--> statement-breakpoint

-- Rebuilds every summary from the base rows, for data loaded with triggers off (an import, a restore, the bench
-- generator): `npm run db:refresh-summaries`. Writers wait while it runs, so the result is exact.
CREATE OR REPLACE FUNCTION refresh_summaries() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  t record;
  rebuilt bigint;
BEGIN
  LOCK TABLE summary_days, summary_deltas, bonus_allocations IN EXCLUSIVE MODE;
  FOR t IN SELECT * FROM summarised_tables() LOOP
    EXECUTE format('LOCK TABLE %I IN SHARE MODE', t.table_name);
  END LOOP;
  -- Set paid_cents without firing the bonuses' triggers: the summaries are rebuilt below anyway.
  CREATE TEMP TABLE bonus_paid ON COMMIT DROP AS
    SELECT b.id, coalesce(sum(a.amount_cents), 0)::bigint AS paid
      FROM bonuses b LEFT JOIN bonus_allocations a ON a.bonus_id = b.id GROUP BY b.id;
  ALTER TABLE bonuses DISABLE TRIGGER bonuses_summary_upd;
  UPDATE bonuses b SET paid_cents = p.paid FROM bonus_paid p WHERE p.id = b.id AND b.paid_cents <> p.paid;
  ALTER TABLE bonuses ENABLE TRIGGER bonuses_summary_upd;
  DROP TABLE bonus_paid;
  DELETE FROM summary_deltas;
  DELETE FROM summary_days;
  FOR t IN SELECT * FROM summarised_tables() LOOP
    EXECUTE format(
      'INSERT INTO summary_days (key, day, n, amount_cents)
       SELECT s.key, s.day, sum(s.n), sum(s.amount_cents) FROM %I r, LATERAL %I(r) s
        GROUP BY s.key, s.day HAVING sum(s.n) <> 0 OR sum(s.amount_cents) <> 0', t.table_name, t.summary_fn);
  END LOOP;
  SELECT count(*) INTO rebuilt FROM summary_days;
  RETURN rebuilt;
END $$;--> statement-breakpoint

SELECT refresh_summaries();
