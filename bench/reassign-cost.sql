-- What reassigning a client costs (decision 026): a client given 10,000 bets, bonuses on 4,000 of
-- them and 2,000 bonus payments, then moved to another staff member, timed, all rolled back.
-- psql "$DATABASE_URL" -f bench/reassign-cost.sql   (a bench database: bench/generate.ts)
\timing on
begin;
select id as client_id from clients where assigned_user_id is not null and deleted_at is null order by id limit 1 \gset
select user_id as other_staff from client_assignments where user_id <> (select assigned_user_id from clients where id = :client_id) limit 1 \gset
insert into bets (client_id, stake_cents, description, profit_cents, status, opened_at, closed_at)
select :client_id, 10000, 'reassign cost', case when g % 10 < 4 then 5000 else -10000 end, 'closed', now() - g * interval '1 minute', now() - g * interval '1 minute'
  from generate_series(1, 10000) g;
insert into bonuses (bet_id, client_id, amount_cents, rate_percent, earned_at)
select id, client_id, 1500, 30, closed_at from bets where client_id = :client_id and description = 'reassign cost' and profit_cents > 0;
insert into bonus_payments (client_id, amount_cents, description, source, paid_at)
select :client_id, 1500, 'reassign cost', 'manual', now() - g * interval '1 minute' from generate_series(1, 2000) g;
select (select count(*) from bets where client_id = :client_id) as bets,
       (select count(*) from bonuses where client_id = :client_id) as bonuses,
       (select count(*) from bonus_payments where client_id = :client_id) as bonus_payments,
       (select count(*) from subscriptions where client_id = :client_id) as subscriptions,
       (select count(*) from mpesa_payments where client_id = :client_id) as payments;
-- The reassignment itself (what POST /api/users/save-clients does for one client), with its triggers.
explain (analyze, buffers, timing off, summary on)
update client_assignments set user_id = :other_staff where client_id = :client_id;
select count(*) as rows_left_with_the_old_owner from bets where client_id = :client_id and assigned_user_id <> :other_staff;
rollback;
