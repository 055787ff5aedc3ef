-- Money figures defined once (docs/decisions/027-money-figures-defined-once.md). The definitions the summary
-- triggers and the queries share live here as SQL functions; apps/api/src/modules/money/figures.ts names them
-- for the services and exports. Plain IMMUTABLE SQL functions, so PostgreSQL inlines them: a query calling
-- bonus_is_unpaid() still matches the partial indexes on `paid_cents < amount_cents`.

-- What is still owed on a bonus: its amount less what bonus payments allocated to it (bonuses.paid_cents,
-- the allocations' sum kept by apply_bonus_allocations()).
CREATE OR REPLACE FUNCTION bonus_unpaid_cents(amount_cents bigint, paid_cents bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT amount_cents - paid_cents $$;--> statement-breakpoint

-- A bonus is unpaid (pending) while something is owed on it.
CREATE OR REPLACE FUNCTION bonus_is_unpaid(amount_cents bigint, paid_cents bigint) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT paid_cents < amount_cents $$;--> statement-breakpoint

-- A payment is income (total income, income today, deposits) once it is claimed or waits unclaimed; a
-- rejected or reversed confirmation is not.
CREATE OR REPLACE FUNCTION payment_is_income(status text) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT status IN ('claimed', 'unclaimed') $$;--> statement-breakpoint

-- The business day a payment counts on: when M-Pesa says it was made, else when it arrived.
CREATE OR REPLACE FUNCTION payment_day(trans_time timestamptz, received_at timestamptz) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT nairobi_day(coalesce(trans_time, received_at)) $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION payment_summary(p mpesa_payments)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  SELECT 'payment:' || p.status || ':'
           || CASE WHEN p.client_id IS NOT NULL THEN 'client' WHEN p.subscriber_id IS NOT NULL THEN 'subscriber' ELSE 'none' END
           || ':' || p.source,
         payment_day(p.trans_time, p.received_at), 1::bigint, coalesce(p.amount_cents, 0)::bigint
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION bonus_summary(b bonuses)
  RETURNS TABLE (key text, day date, n bigint, amount_cents bigint)
  LANGUAGE sql STABLE STRICT AS $$
  WITH owner AS (SELECT coalesce((SELECT opened_by FROM bets WHERE id = b.bet_id), 0) AS staff)
  SELECT 'bonus:earned:' || staff, nairobi_day(b.earned_at), 1::bigint, b.amount_cents::bigint FROM owner
  UNION ALL
  SELECT 'bonus:paid:' || staff, nairobi_day(b.earned_at), (b.paid_cents > 0)::int::bigint, b.paid_cents FROM owner
  UNION ALL
  SELECT 'bonus:unpaid:' || staff, nairobi_day(b.earned_at), 1, bonus_unpaid_cents(b.amount_cents, b.paid_cents) FROM owner
   WHERE bonus_is_unpaid(b.amount_cents, b.paid_cents)
$$;
