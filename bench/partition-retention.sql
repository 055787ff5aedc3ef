-- Retention of SMS history: the text-emptying job, a delete of a month, a dropped month partition
-- (decision 082, docs/performance.md). Run on a scratch database migrated by the API (never the
-- business's own): psql -d <scratch> -f bench/partition-retention.sql. It writes 2,000,000 outbox
-- rows over 24 months, measures, and leaves the rows (drop the database afterwards).
\set ON_ERROR_STOP on
insert into sms_messages (intent, dedupe_key, recipient, body, parts, status, priority, sms_class,
                          created_at, sent_at, updated_at, next_attempt_at, provider, provider_message_id, provider_status)
select 'tips.sms-tip', 'bench:' || g, '2547' || lpad((g % 99999999)::text, 8, '0'),
       'Tip of the day: Arsenal vs Chelsea, over 2.5 goals at 1.85. Reply STOP to opt out. Ref ' || g, 1,
       'delivered', 1, 'service', ts, ts, ts, ts, 'africastalking', 'ATX' || g, 'Success'
  from (select g, timestamptz '2024-12-01' + (g::float8 / 2000000) * interval '730 days' as ts
          from generate_series(1, 2000000) g) s;
vacuum analyze sms_messages;
\timing on

-- 1. Today's job (privacy/queries.ts emptyOldSentTexts): two runs of 20,000 texts, texts older than a year.
select pg_current_wal_lsn() as l0 \gset
with batch as (select id from sms_messages where id > 0 and created_at < '2025-12-01'::timestamptz order by id limit 20000),
     done as (update sms_messages m set body = '' from batch where m.id = batch.id and m.body <> '' returning m.id)
select (select count(*)::int from done) as n, (select max(id) from batch) as top;
select pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), :'l0')) as wal_run1;
select pg_current_wal_lsn() as l1 \gset
with batch as (select id from sms_messages where id > 20000 and created_at < '2025-12-01'::timestamptz order by id limit 20000),
     done as (update sms_messages m set body = '' from batch where m.id = batch.id and m.body <> '' returning m.id)
select (select count(*)::int from done) as n, (select max(id) from batch) as top;
select pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), :'l1')) as wal_run2;

-- 2. A row-deleting retention of the oldest month (rolled back).
begin;
select pg_current_wal_lsn() as l2 \gset
delete from sms_messages where created_at < '2025-01-01';
select pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), :'l2')) as wal_delete_month;
rollback;
\timing off

-- 3. The same rows in a table partitioned by month (the outbox's indexes on every partition), the
--    oldest month detached and dropped.
create table sms_part (like sms_messages including defaults, primary key (id, created_at), unique (dedupe_key, created_at))
  partition by range (created_at);
create table sms_part_2024_12 partition of sms_part for values from ('2024-12-01') to ('2025-01-01');
create table sms_part_2025_01 partition of sms_part for values from ('2025-01-01') to ('2025-02-01');
create table sms_part_2025_02 partition of sms_part for values from ('2025-02-01') to ('2025-03-01');
create table sms_part_default partition of sms_part default;
select format('create index %s on sms_part %s', 'p_' || indexname,
              substring(indexdef from ' USING .*$')) as ddl
  from pg_indexes
 where tablename = 'sms_messages' and indexname not in ('sms_messages_pkey', 'sms_messages_dedupe_key_unique') \gexec
insert into sms_part select * from sms_messages where created_at < '2025-03-01';
vacuum analyze sms_part;
\timing on
select count(*) as oldest_month_rows from sms_part_2024_12;
select pg_current_wal_lsn() as l3 \gset
alter table sms_part detach partition sms_part_2024_12;
drop table sms_part_2024_12;
select pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), :'l3')) as wal_drop_month;
\timing off
drop table sms_part;
