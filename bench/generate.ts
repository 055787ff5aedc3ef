/**
 * npm run bench:generate -- --scale 1 [--fresh]: fills the PostgreSQL database of DATABASE_URL with
 * the business's history at a scale factor, through set-based SQL only (insert ... select from
 * generate_series, batched by id ranges so memory stays flat and progress prints).
 *
 * --scale 1 = 200,000 clients, 2,000,000 bets (bonuses on the winning closed ones, paid ones with
 * their bonus payments and allocations), 2,000,000 M-Pesa payments, 1,000,000 tips subscribers,
 * 3,000,000 subscriptions, 2,000,000 SMS, staff users (one with ~10,000 clients) and an admin.
 * Whatever the scale, each bet category has two years of daily tips tickets with their legs and
 * results (~730 tickets, ~2,000 legs per category): a tipster's record does not grow with the customers.
 *
 * Every row is derived from its id by a hash (pg_temp.h), so a table generated later can recompute
 * what an earlier one holds (a payment's package, a client's name, a subscriber's phone) without
 * reading it back: ids are given explicitly and the identity sequences are moved past them at the end.
 * Money is coherent with the ledger rules: a claimed payment credits its payee, what it bought (a
 * subscription, bonuses) is debited; manual subscriptions and manual bonus payments post nothing.
 * The rows go in with triggers off, as an import would; the day summaries are rebuilt at the end.
 *
 * --shape picks the business's shape (decision 045: a bench that passes only on its own data proves little):
 *   reference    (default) the shape every earlier figure was measured on: the big staff member holds every
 *                20th client, 19 others share 13 in 20 and the rest are unassigned; 1 % of the bets open
 *                (20,000 at scale 1); payments mostly tips deposits (78 %), 3 % unclaimed; a small name pool
 *                in which "Gor" matches no one.
 *   interleaved  an independent dataset's shape (decision 045): 20 staff members share every client, each every 20th id;
 *                the newest 5,000 bets open; tips deposits and Bet4Me payments half and half, 5 % unclaimed;
 *                a pool of Kenyan names in which "Gor" matches many clients and payers (Gordon, Goretti, Agoro…).
 *   block        as interleaved, but each staff member holds one block of consecutive ids (the big one the
 *                oldest twentieth), only 200 bets open, and payments mostly tips deposits as in reference.
 * and --clients reference|interleaved|block, --open-bets N, --payments tips|even, --names reference|kenyan
 * override one trait of the shape.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import { refreshSummaries } from '../apps/api/src/db/summaries.ts';
import { rebuildRetentionSummaries } from '../apps/api/src/modules/reports/service.ts';
import { hashPassword } from '../apps/api/src/lib/password.ts';
import { ensureSettingDefaults } from '../apps/api/src/modules/settings/service.ts';
import { BENCH_ABSENT_STAFF_EMAIL, BENCH_ADMIN_EMAIL, BENCH_PASSWORD, BENCH_RARE_STAFF_EMAIL, BENCH_STAFF_EMAIL, RARE_SURNAME } from './accounts.ts';

export interface GenerateOptions {
  url: string;
  scale: number;
  /** Drop and recreate the database first. */
  fresh: boolean;
  /** Rows per statement. */
  batch: number;
  /** The business's shape (see the header); reference when absent. */
  shape?: Partial<Shape>;
}

/** How the business is shaped: who holds which clients, how many bets are open, what payments are, what names are. */
export interface Shape {
  /** reference: every 20th client to the big staff member, 13 in 20 shared by 19 others; interleaved: 20 staff, each every 20th; block: 20 staff, each a block of ids. */
  clients: 'reference' | 'interleaved' | 'block';
  /** Open bets (the newest ones); null: 1 % of the bets. */
  openBets: number | null;
  /** tips: 78.5 % tips deposits, 18 % Bet4Me, 3 % unclaimed; even: 47.5 % tips deposits, 47 % Bet4Me, 5 % unclaimed (half naming a category). */
  payments: 'tips' | 'even';
  /** reference: 40 first names, 42 surnames, none containing "gor"; kenyan: a larger pool where "gor" is common and RARE_SURNAME rare. */
  names: 'reference' | 'kenyan';
}

export const SHAPES = {
  reference: { clients: 'reference', openBets: null, payments: 'tips', names: 'reference' },
  interleaved: { clients: 'interleaved', openBets: 5_000, payments: 'even', names: 'kenyan' },
  block: { clients: 'block', openBets: 200, payments: 'tips', names: 'kenyan' },
} as const satisfies Record<string, Shape>;
export type ShapeName = keyof typeof SHAPES;


/** Row counts at --scale 1 (docs/performance.md). */
const FULL = {
  clients: 200_000,
  bets: 2_000_000,
  payments: 2_000_000,
  subscribers: 1_000_000,
  subscriptions: 3_000_000,
  sms: 2_000_000,
};
const OTHER_STAFF = 19;
/** Share of clients the one big staff user looks after (~10,000 at scale 1). */
const BIG_STAFF_EVERY = 20;

const firstNames = [
  'Brian', 'Kevin', 'Dennis', 'Collins', 'Victor', 'Peter', 'John', 'James', 'Samuel', 'David', 'Joseph', 'Daniel',
  'Stephen', 'Francis', 'Moses', 'Emmanuel', 'Felix', 'Kelvin', 'Ian', 'Eric', 'Mary', 'Faith', 'Grace', 'Mercy',
  'Esther', 'Ann', 'Jane', 'Lucy', 'Caroline', 'Sharon', 'Joy', 'Cynthia', 'Purity', 'Winnie', 'Diana', 'Naomi',
  'Evans', 'Geoffrey', 'Beatrice', 'Lilian',
];
/** The Kenyan pool adds these (Gordon, Goretti, Agoro, Ongoro and Nyagoro make "Gor" match about one name in twelve). */
const kenyanFirstNames = [
  'Gordon', 'Goretti', 'Wycliffe', 'Brenda', 'Edwin', 'Vincent', 'Nancy', 'Fredrick', 'Millicent', 'Kennedy', 'Beryl',
  'Everlyne', 'Tabitha', 'Hillary', 'Gladys', 'Wilfred', 'Josphat', 'Phoebe', 'Nelly', 'Duncan',
];
const kenyanSurnames = [
  'Agoro', 'Ongoro', 'Nyagoro', 'Wanyama', 'Oduor', 'Kipkemboi', 'Jepkosgei', 'Muthoni', 'Nyaga', 'Ouma', 'Adhiambo',
  'Langat', 'Mbugua', 'Kiprop', 'Waswa', 'Muriuki', 'Kilonzo', 'Nduta', 'Simiyu', 'Atieno',
];

/** Otieno and Wanjiku take 5 % each (~100,000 of 2,000,000 payments); the rest share 90 %. */
const commonSurnames = ['Otieno', 'Wanjiku'];
const otherSurnames = [
  'Mwangi', 'Kamau', 'Wanjiru', 'Ochieng', 'Njoroge', 'Kiprotich', 'Wafula', 'Mutua', 'Kariuki', 'Odhiambo',
  'Chebet', 'Kiplagat', 'Mwende', 'Achieng', 'Onyango', 'Njeri', 'Kimani', 'Musyoka', 'Barasa', 'Cheruiyot',
  'Nyambura', 'Omondi', 'Wambui', 'Korir', 'Macharia', 'Auma', 'Kipchumba', 'Gitau', 'Ndungu', 'Akinyi', 'Wekesa',
  'Maina', 'Rotich', 'Njuguna', 'Okoth', 'Owino', 'Kibet', 'Nyongesa', 'Mugo', 'Waweru',
];
const matches = [
  'Gor Mahia v AFC Leopards, home win', 'Arsenal v Chelsea, over 2.5 goals', 'Man United v Liverpool, both teams score',
  'Tusker v KCB, draw', 'Real Madrid v Barcelona, home win', 'Bandari v Ulinzi Stars, under 2.5 goals',
  'Bayern v Dortmund, over 3.5 goals', 'PSG v Marseille, home win and over 1.5', 'Inter v Milan, both teams score',
  'Weekend multibet, 5 legs', 'Kenya Police v Shabana, away win', 'Juventus v Napoli, draw no bet',
];
const betCategories = [
  { name: 'Daily 2 Odds', code: 'D2' },
  { name: 'Daily 5 Odds', code: 'D5' },
  { name: 'Over 1.5 Goals', code: 'O15' },
  { name: 'Both Teams To Score', code: 'GG' },
  { name: 'Weekend Jackpot', code: 'JP' },
];
const durations = [1, 7, 30];
/** Days of daily tickets per category (two years), whatever the scale. */
const RECORD_DAYS = 730;
const teams = [
  'Arsenal', 'Chelsea', 'Liverpool', 'Man United', 'Man City', 'Spurs', 'Everton', 'Leeds', 'Gor Mahia', 'AFC Leopards',
  'Tusker', 'KCB', 'Bandari', 'Ulinzi Stars', 'Real Madrid', 'Barcelona', 'Bayern', 'Dortmund', 'Inter', 'Milan',
];
const competitions = ['Premier League', 'Kenyan Premier League', 'La Liga', 'Bundesliga', 'Serie A'];
/** Markets with a pick each, as staff write them. */
const markets = [
  ['1X2', '1'], ['1X2', 'X'], ['1X2', '2'], ['Over 1.5', 'Over 1.5'], ['GG', 'GG'], ['Double chance', '1X'], ['Asian handicap -0.25', 'Home'],
];
const basePriceKes: Record<number, number> = { 1: 50, 7: 300, 30: 1000 };

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
const textArray = (list: readonly string[]) => `array[${list.map(lit).join(',')}]::text[]`;

export function counts(scale: number) {
  const n = (full: number) => Math.max(1, Math.round(full * scale));
  return {
    clients: Math.max(n(FULL.clients), BIG_STAFF_EVERY * 10),
    bets: n(FULL.bets),
    payments: n(FULL.payments),
    subscribers: n(FULL.subscribers),
    subscriptions: n(FULL.subscriptions),
    sms: n(FULL.sms),
    posts: Math.max(50, Math.round(3_000 * scale)),
  };
}

function log(message: string) {
  console.log(`[generate ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/**
 * Session helpers. h(id, salt, n) is a stable pseudo-random integer in [0, n); the name and phone
 * of client / subscriber k are functions of k, so payments and SMS name them without a join.
 */
export function helperFunctions(names: Shape['names'] = 'reference'): string {
  const firstPool = names === 'kenyan' ? [...firstNames, ...kenyanFirstNames] : firstNames;
  const surnamePool = names === 'kenyan' ? [...otherSurnames, ...kenyanSurnames] : otherSurnames;
  const firsts = textArray(firstPool);
  const others = textArray(surnamePool);
  const rare = (salt: number) => (names === 'kenyan' ? `when pg_temp.h(k, ${salt}, 20000) = 0 then ${lit(RARE_SURNAME)}` : '');
  const surname = (salt: number) => `(case ${rare(salt + 2)} when pg_temp.h(k, ${salt}, 1000) < 50 then ${lit(commonSurnames[0]!)}
      when pg_temp.h(k, ${salt}, 1000) < 100 then ${lit(commonSurnames[1]!)}
      else (${others})[1 + pg_temp.h(k, ${salt + 1}, ${surnamePool.length})] end)`;
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  // A receipt: 'S' and 9 base-36 digits of k times a multiplier coprime with 36, modulo 36^9
  // (a bijection, so receipts never repeat).
  const digits = Array.from({ length: 9 }, (_, d) => `substr('${alphabet}', (((k * 2654435761) % 101559956668416) / ${36n ** BigInt(8 - d)} % 36)::int + 1, 1)`);
  return `
    create or replace function pg_temp.h(i bigint, salt int, n int) returns int language sql immutable parallel safe as
      $$ select ((hashint8extended(i, salt) & 9223372036854775807) % n)::int $$;
    create or replace function pg_temp.client_name(k bigint) returns text language sql immutable as
      $$ select (${firsts})[1 + pg_temp.h(k, 1, ${firstPool.length})] || ' ' || ${surname(2)} $$;
    create or replace function pg_temp.subscriber_name(k bigint) returns text language sql immutable as
      $$ select (${firsts})[1 + pg_temp.h(k, 4, ${firstPool.length})] || ' ' || ${surname(5)} $$;
    create or replace function pg_temp.client_phone(k bigint) returns text language sql immutable as
      $$ select '2547' || lpad(((k * 7919 + 11) % 100000000)::text, 8, '0') $$;
    create or replace function pg_temp.subscriber_phone(k bigint) returns text language sql immutable as
      $$ select (case when k % 5 = 0 then '2541' else '2547' end) || lpad(((k * 104729 + 13) % 100000000)::text, 8, '0') $$;
    create or replace function pg_temp.sha(t text) returns text language sql immutable as
      $$ select encode(sha256(convert_to(t, 'UTF8')), 'hex') $$;
    create or replace function pg_temp.receipt(k bigint) returns text language sql immutable as
      $$ select 'S' || ${digits.join(' || ')} $$;
    create or replace function pg_temp.daraja_time(t timestamptz) returns text language sql immutable as
      $$ select to_char(t at time zone 'Africa/Nairobi', 'YYYYMMDDHH24MISS') $$;
  `;
}

interface Context {
  client: pg.Client;
  /** The generation's "now", fixed so that every statement agrees on what is past and future. */
  t0: string;
  n: ReturnType<typeof counts>;
  shape: Shape;
  batch: number;
  adminId: number;
  bigStaffId: number;
  /** Looks after every 100th client (1 %); taken from the shared staff's part. */
  rareStaffId: number;
  staffIds: number[];
  packageIds: number[];
  planIds: { weekly: number; monthly: number };
}

async function batched(ctx: Context, label: string, from: number, to: number, statement: (lo: number, hi: number) => string) {
  const started = Date.now();
  let rows = 0;
  for (let lo = from; lo <= to; lo += ctx.batch) {
    const hi = Math.min(to, lo + ctx.batch - 1);
    const text = statement(lo, hi);
    if (process.env.BENCH_SQL_DIR && lo === from) writeFileSync(`${process.env.BENCH_SQL_DIR}/${label.replaceAll(' ', '-')}.sql`, text);
    const result = await ctx.client.query(text);
    rows += result.rowCount ?? 0;
    const seconds = (Date.now() - started) / 1000;
    log(`${label}: ids ${hi.toLocaleString('en-KE')}/${to.toLocaleString('en-KE')}, ${rows.toLocaleString('en-KE')} rows, ${Math.round(rows / Math.max(seconds, 0.001)).toLocaleString('en-KE')} rows/s`);
  }
  return rows;
}

/** The staff user looking after client c (null: unassigned), as SQL over an integer expression. */
function staffOf(ctx: Context, c: string): string {
  // The other 19 staff members (1-based array): the big one holds the 0th part, the rare one takes
  // every 100th client out of the 10th part in every layout.
  const others = `(array[${ctx.staffIds.join(',')}])`;
  if (ctx.shape.clients === 'interleaved') {
    return `(case when ${c} % 100 = 50 then ${ctx.rareStaffId} when ${c} % 20 = 0 then ${ctx.bigStaffId} else ${others}[${c} % 20] end)`;
  }
  if (ctx.shape.clients === 'block') {
    const part = `((${c} - 1)::bigint * 20 / ${ctx.n.clients})`;
    return `(case when ${c} % 100 = 50 then ${ctx.rareStaffId} when ${part} = 0 then ${ctx.bigStaffId} else ${others}[${part}] end)`;
  }
  return `(case when ${c} % 100 = 50 then ${ctx.rareStaffId}
                when ${c} % ${BIG_STAFF_EVERY} = 0 then ${ctx.bigStaffId}
                when ${c} % ${BIG_STAFF_EVERY} <= 13 then (array[${ctx.staffIds.join(',')}])[1 + (${c} / ${BIG_STAFF_EVERY}) % ${ctx.staffIds.length}]
           end)`;
}

/** A point in the last `days` days for id i of n: ids grow with time, with a little jitter. */
function timeOf(ctx: Context, i: string, n: number, days: number, salt: number): string {
  return `(${ctx.t0} - interval '${days} days' * (1 - ${i}::float8 / ${n}) - pg_temp.h(${i}, ${salt}, 3600) * interval '1 second')`;
}

async function referenceData(ctx: Context): Promise<void> {
  const { client } = ctx;
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const user = async (name: string, email: string, phone: string, category: number) => {
    const { rows } = await client.query<{ id: number }>(
      `insert into users (name, phone_number, phone_hash, email, category_id, password_hash, created_at, updated_at)
       values ($1, $2, pg_temp.sha($2), $3, $4, $5, ${ctx.t0} - interval '800 days', ${ctx.t0} - interval '800 days') returning id`,
      [name, phone, email, category, passwordHash],
    );
    return rows[0]!.id;
  };
  ctx.adminId = await user('Bench Admin', BENCH_ADMIN_EMAIL, '254700000001', 1);
  await user('Bench Second Admin', 'bench-admin-2@betdesk.local', '254700000002', 1);
  ctx.bigStaffId = await user('Wanjiku Otieno', BENCH_STAFF_EMAIL, '254700000010', 2);
  ctx.rareStaffId = await user('Rare Staff', BENCH_RARE_STAFF_EMAIL, '254700000011', 2);
  await user('Staff Without Clients', BENCH_ABSENT_STAFF_EMAIL, '254700000012', 2);
  ctx.staffIds = [ctx.bigStaffId];
  for (let s = 1; s <= OTHER_STAFF; s++) {
    ctx.staffIds.push(await user(`Staff ${s}`, `bench-staff-${s}@betdesk.local`, `2547000001${String(s).padStart(2, '0')}`, 2));
  }
  // The big staff user only takes every 20th client; the others share the next 13 of 20.
  ctx.staffIds = ctx.staffIds.slice(1);

  for (const c of betCategories) await client.query(`insert into bet_categories (name, code) values ($1, $2)`, [c.name, c.code]);
  const { rows: categories } = await client.query<{ id: number; code: string }>(`select id, code from bet_categories order by id`);
  ctx.packageIds = [];
  for (const [ci, c] of categories.entries()) {
    for (const medium of ['sms', 'web'] as const) {
      for (const days of durations) {
        const kes = basePriceKes[days]! + ci * 20 + (medium === 'web' ? 10 : 0);
        const { rows } = await client.query<{ id: number }>(
          `insert into price_packages (bet_category_id, medium, name, duration_days, price_cents) values ($1, $2, $3, $4, $5) returning id`,
          [c.id, medium, `${c.code} ${medium.toUpperCase()} ${days} day${days > 1 ? 's' : ''}`, days, kes * 100],
        );
        ctx.packageIds.push(rows[0]!.id);
      }
    }
  }
  const plan = async (name: string, days: number, cents: number) =>
    (await client.query<{ id: number }>(`insert into bet4me_plans (name, duration_days, price_cents) values ($1, $2, $3) returning id`, [name, days, cents])).rows[0]!.id;
  ctx.planIds = { weekly: await plan('Weekly', 7, 100_000), monthly: await plan('Monthly', 30, 350_000) };

  await client.query(`insert into post_categories (name) values ('Football'), ('Jackpot'), ('Basketball'), ('Tennis')`);
  await client.query(`
    insert into tips_posts (title, post_category_id, match_date, content, created_by, updated_by, created_at, updated_at)
    select 'Tips for ' || to_char(d, 'DD Mon YYYY') || ' #' || i,
           (select min(id) from post_categories) + i % 4,
           d::date, '<p>' || (${textArray(matches)})[1 + i % ${matches.length}] || ' @' || (1.3 + (i % 20) / 10.0) || '</p>',
           ${ctx.bigStaffId}, ${ctx.bigStaffId}, d, d
      from generate_series(1, ${ctx.n.posts}) i, lateral (select ${timeOf(ctx, 'i', ctx.n.posts, 730, 90)} as d) t`);
  await client.query(`
    insert into tips_post_bets (post_id, bet_category_id)
    select p.id, c.id from tips_posts p join bet_categories c on c.id = (select min(id) from bet_categories) + p.id % ${categories.length}`);
  await client.query(`
    insert into sms_tip_versions (bet_category_id, content, created_by, created_at)
    select c.id, c.code || ' ' || to_char(d, 'YYYY-MM-DD') || ': ' || (${textArray(matches)})[1 + (day + c.id) % ${matches.length}] || '. Reply STOP to opt out.',
           ${ctx.bigStaffId}, d
      from generate_series(0, 729) day, bet_categories c, lateral (select ${ctx.t0} - interval '1 day' * (729 - day) - interval '10 hours' as d) t
     order by d, c.id`);
  await client.query(`insert into winnings_content (id, content, updated_by) values (1, '<p>Last week: 9 of 12 D2 tips won.</p>', ${ctx.adminId})`);
}

/**
 * Two years of daily tickets per bet category, each of 2 to 4 legs (about 2.8 on average) kicking
 * off from 16:00 Nairobi two hours apart, published six hours before (one in fifty after its first
 * kick-off, so it never counts). Legs that kicked off have results: about 58 % won, 32 % lost and
 * the rest void or half results.
 */
async function tipsRecord(ctx: Context): Promise<void> {
  const { client } = ctx;
  const started = Date.now();
  const tickets = await client.query(`
    insert into tip_tickets (id, bet_category_id, match_date, published_at, first_kickoff_at, created_by, updated_by)
    select c.rn * ${RECORD_DAYS} + day + 1, c.id, k.match_date,
           case when pg_temp.h(c.rn * ${RECORD_DAYS} + day + 1, 73, 50) = 0 then k.first_kickoff + interval '10 minutes'
                else least(k.first_kickoff - interval '6 hours', ${ctx.t0}) end,
           k.first_kickoff, ${ctx.bigStaffId}, ${ctx.bigStaffId}
      from (select id, row_number() over (order by id) - 1 as rn from bet_categories) c,
           generate_series(0, ${RECORD_DAYS - 1}) day,
           lateral (select (${ctx.t0} at time zone 'Africa/Nairobi')::date - (${RECORD_DAYS - 1} - day) as match_date) d,
           lateral (select d.match_date, (d.match_date + time '16:00') at time zone 'Africa/Nairobi' as first_kickoff) k`);
  const legs = await client.query(`
    insert into tip_selections (ticket_id, position, home, away, competition, kickoff_at, market, pick, odds_hundredths, result, result_at, result_by)
    select t.id, p, (${textArray(teams)})[1 + pg_temp.h(leg, 76, ${teams.length})],
           (${textArray(teams)})[1 + (pg_temp.h(leg, 76, ${teams.length}) + 1 + pg_temp.h(leg, 77, ${teams.length - 1})) % ${teams.length}],
           (${textArray(competitions)})[1 + pg_temp.h(leg, 78, ${competitions.length})], ko,
           (${textArray(markets.map(([m]) => m!))})[1 + pg_temp.h(leg, 79, ${markets.length})],
           (${textArray(markets.map(([, pick]) => pick!))})[1 + pg_temp.h(leg, 79, ${markets.length})],
           120 + pg_temp.h(leg, 80, 90),
           r.result, case when r.result is not null then ko + interval '2 hours' end, case when r.result is not null then ${ctx.bigStaffId} end
      from tip_tickets t,
           lateral generate_series(1, 2 + pg_temp.h(t.id, 71, 2) + (pg_temp.h(t.id, 72, 3) = 0)::int) p,
           lateral (select t.id::bigint * 8 + p as leg, t.first_kickoff_at + interval '2 hours' * (p - 1) as ko) l,
           lateral (select case when ko + interval '2 hours' > ${ctx.t0} then null
                                when pg_temp.h(leg, 81, 100) < 58 then 'won' when pg_temp.h(leg, 81, 100) < 90 then 'lost'
                                when pg_temp.h(leg, 81, 100) < 94 then 'void' when pg_temp.h(leg, 81, 100) < 97 then 'half_won'
                                else 'half_lost' end as result) r
     order by t.id, p`);
  log(`tips record: ${tickets.rowCount} tickets, ${legs.rowCount} legs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function people(ctx: Context): Promise<void> {
  const { n } = ctx;
  await batched(ctx, 'clients', 1, n.clients, (lo, hi) => `
    insert into clients (id, name, phone, phone_hash, email, maximum_stake_cents, last_login, created_by, created_at, updated_at, assigned_user_id)
    select k, pg_temp.client_name(k), pg_temp.client_phone(k), pg_temp.sha(pg_temp.client_phone(k)),
           case when pg_temp.h(k, 30, 10) < 4 then lower(replace(pg_temp.client_name(k), ' ', '.')) || k || '@gmail.com' end,
           case when pg_temp.h(k, 31, 10) < 6 then (array[200000, 500000, 1000000, 2000000])[1 + pg_temp.h(k, 32, 4)] end,
           case when pg_temp.h(k, 33, 2) = 0 then ${ctx.t0} - pg_temp.h(k, 34, 30 * 86400) * interval '1 second' end,
           ${ctx.adminId}, t, t, ${staffOf(ctx, 'k')}
      from generate_series(${lo}, ${hi}) k, lateral (select ${timeOf(ctx, 'k', n.clients, 900, 35)} as t) x`);
  await batched(ctx, 'client assignments', 1, n.clients, (lo, hi) => `
    insert into client_assignments (client_id, user_id, assigned_by, assigned_at)
    select id, ${staffOf(ctx, 'id')}, ${ctx.adminId}, created_at from clients
     where id between ${lo} and ${hi} and ${staffOf(ctx, 'id')} is not null`);
  await batched(ctx, 'tips subscribers', 1, n.subscribers, (lo, hi) => `
    insert into tips_subscribers (id, name, phone, phone_hash, created_by, joined_at)
    select k, pg_temp.subscriber_name(k), pg_temp.subscriber_phone(k), pg_temp.sha(pg_temp.subscriber_phone(k)),
           case when pg_temp.h(k, 40, 10) = 0 then (array[${ctx.staffIds.join(',')}])[1 + pg_temp.h(k, 41, ${ctx.staffIds.length})] end,
           ${timeOf(ctx, 'k', n.subscribers, 760, 42)}
      from generate_series(${lo}, ${hi}) k`);
  // A history of buyers from before the 18+ gate (decision 060: channel `before_gate`), so that the
  // ingestion scenario's payments from subscribers' phones are purchases, as its bare-SQL floor's are,
  // not payments held for a reply of 18 (decision 066).
  await batched(ctx, 'age declarations', 1, n.subscribers, (lo, hi) => `
    insert into age_declarations (phone, channel, declared_at)
    select pg_temp.subscriber_phone(k), 'before_gate', ${timeOf(ctx, 'k', n.subscribers, 760, 42)}
      from generate_series(${lo}, ${hi}) k
    on conflict (phone) do nothing`);
}

/** Bets, bonuses on the winners, and three in four bonuses older than a week paid: half by M-Pesa. */
async function betsAndBonuses(ctx: Context): Promise<void> {
  const { n } = ctx;
  const openFrom = ctx.shape.openBets === null ? Math.floor(n.bets * 0.99) + 1 : Math.max(1, n.bets - ctx.shape.openBets + 1);
  await batched(ctx, 'bets', 1, n.bets, (lo, hi) => `
    insert into bets (id, client_id, stake_cents, description, profit_cents, status, opened_by, opened_at, closed_by, closed_at, assigned_user_id)
    overriding system value
    select i, c, stake, (${textArray(matches)})[1 + pg_temp.h(i, 52, ${matches.length})],
           case when i >= ${openFrom} then null when pg_temp.h(i, 53, 100) < 45 then stake * (50 + pg_temp.h(i, 54, 200)) / 100 else -stake end,
           case when i >= ${openFrom} then 'open' else 'closed' end,
           coalesce(owner, ${ctx.adminId}), opened,
           case when i < ${openFrom} then coalesce(owner, ${ctx.adminId}) end,
           case when i < ${openFrom} then least(opened + (2 + pg_temp.h(i, 55, 28)) * interval '1 hour', ${ctx.t0}) end,
           owner
      from generate_series(${lo}, ${hi}) i,
           lateral (select 1 + pg_temp.h(i, 50, ${n.clients}) as c,
                           (array[20000, 50000, 100000, 150000, 200000, 300000, 500000])[1 + pg_temp.h(i, 51, 7)]::bigint as stake,
                           ${timeOf(ctx, 'i', n.bets, 730, 56)} as opened) x,
           lateral (select ${staffOf(ctx, 'x.c')} as owner) o`);
  // A bonus's id is its bet's id; a paid bonus's payment and allocation carry the same id.
  await batched(ctx, 'bonuses', 1, n.bets, (lo, hi) => `
    insert into bonuses (id, bet_id, client_id, amount_cents, rate_percent, earned_at, assigned_user_id)
    overriding system value
    select id, id, client_id, round(profit_cents * 0.30), 30, closed_at, assigned_user_id from bets
     where id between ${lo} and ${hi} and status = 'closed' and profit_cents > 0`);
  const paidAt = `least(b.earned_at + (1 + pg_temp.h(b.id, 60, 6)) * interval '1 day', ${ctx.t0})`;
  const paidAmount = `case when pg_temp.h(b.id, 61, 10) = 0 then round(b.amount_cents / 2.0) else b.amount_cents end`;
  const byMpesa = `pg_temp.h(b.id, 62, 2) = 0`;
  await batched(ctx, 'bonus payments', 1, n.bets, (lo, hi) => `
    insert into bonus_payments (id, client_id, amount_cents, description, source, payment_id, recorded_by, paid_at, assigned_user_id)
    overriding system value
    select b.id, b.client_id, ${paidAmount},
           case when ${byMpesa} then 'Paid by M-Pesa' when pg_temp.h(b.id, 63, 2) = 0 then 'Paid by M-Pesa to the till' else 'Cash at the office' end,
           case when ${byMpesa} then 'mpesa' else 'manual' end,
           case when ${byMpesa} then ${n.payments} + b.id end,
           case when ${byMpesa} then null else ${ctx.adminId} end,
           ${paidAt}, b.assigned_user_id
      from bonuses b
     where b.id between ${lo} and ${hi} and b.earned_at < ${ctx.t0} - interval '7 days' and pg_temp.h(b.id, 64, 4) < 3`);
  await batched(ctx, 'bonus allocations', 1, n.bets, (lo, hi) => `
    insert into bonus_allocations (bonus_payment_id, bonus_id, amount_cents)
    select id, id, amount_cents from bonus_payments where id between ${lo} and ${hi}`);
  // The M-Pesa payments that paid them: claimed to the client by account number (B4M<id>).
  await batched(ctx, 'M-Pesa payments of bonuses', 1, n.bets, (lo, hi) => `
    insert into mpesa_payments (id, trans_id, source, transaction_type, amount_cents, bill_ref_number, msisdn, msisdn_kind,
                                sender_phone, sender_name, trans_time, business_short_code, raw, status, client_id, matched_by, received_at,
                                assigned_user_id)
    overriding system value
    select bp.payment_id, r.rc, 'c2b', 'Pay Bill', bp.amount_cents, 'B4M' || bp.client_id, r.msisdn, 'hashed', null,
           upper(pg_temp.client_name(bp.client_id)), bp.paid_at - interval '3 seconds', '600984',
           jsonb_build_object('TransactionType', 'Pay Bill', 'TransID', r.rc, 'TransTime', pg_temp.daraja_time(bp.paid_at - interval '3 seconds'),
             'TransAmount', to_char(bp.amount_cents / 100.0, 'FM999999990.00'), 'BusinessShortCode', '600984',
             'BillRefNumber', 'B4M' || bp.client_id, 'InvoiceNumber', '', 'OrgAccountBalance', '', 'ThirdPartyTransID', '',
             'MSISDN', r.msisdn, 'FirstName', upper(split_part(pg_temp.client_name(bp.client_id), ' ', 1)), 'MiddleName', '',
             'LastName', upper(split_part(pg_temp.client_name(bp.client_id), ' ', 2))),
           'claimed', bp.client_id, 'account', bp.paid_at, bp.assigned_user_id
      from bonus_payments bp,
           lateral (select pg_temp.receipt(bp.payment_id) as rc, pg_temp.sha(pg_temp.client_phone(bp.client_id)) as msisdn) r
     where bp.id between ${lo} and ${hi} and bp.source = 'mpesa'`);
  await batched(ctx, 'ledger of bonus payments', 1, n.bets, (lo, hi) => `
    insert into ledger_entries (client_id, amount_cents, kind, payment_id, bonus_payment_id, created_at)
    select bp.client_id, e.amount, e.kind, bp.payment_id, e.bonus_payment_id, bp.paid_at
      from bonus_payments bp,
           lateral (values (bp.amount_cents, 'payment', null::bigint), (-bp.amount_cents, 'bonus_payment', bp.id)) e(amount, kind, bonus_payment_id)
     where bp.id between ${lo} and ${hi} and bp.source = 'mpesa'`);
}

/**
 * The other payments, by class of id (i % 200): 1 rejected, 6 unclaimed, 30 Bet4Me plans, 6 client
 * credit (an amount that buys nothing), 157 tips (nine in ten the exact price of a package); with
 * payments 'even': 1 rejected, 10 unclaimed (half of them tips deposits waiting: their account names a
 * bet category), 88 plans, 6 credit, 95 tips.
 * One in five arrives by STK; C2B MSISDNs are hashed, plain or masked.
 */
function paymentClassSql(ctx: Context, i: string) {
  const [unclaimed, plan, credit] = ctx.shape.payments === 'even' ? [10, 98, 104] : [6, 36, 42];
  return `(case when ${i} % 200 = 0 then 'rejected' when ${i} % 200 <= ${unclaimed} then 'unclaimed'
                when ${i} % 200 <= ${plan} then 'plan' when ${i} % 200 <= ${credit} then 'credit' else 'tips' end)`;
}
const tipsBuysSql = (i: string) => `pg_temp.h(${i}, 70, 10) <> 0`;

async function payments(ctx: Context, count: number): Promise<void> {
  const { n } = ctx;
  const packages = `array[${ctx.packageIds.join(',')}]`;
  await batched(ctx, 'M-Pesa payments', 1, count, (lo, hi) => `
    insert into mpesa_payments (id, trans_id, source, transaction_type, amount_cents, bill_ref_number, msisdn, msisdn_kind,
                                sender_phone, sender_name, trans_time, business_short_code, raw, status, reject_reason,
                                client_id, subscriber_id, matched_by, claimed_by, claimed_at, received_at, assigned_user_id)
    overriding system value
    select i, rc, src, case when src = 'stk' then 'CustomerPayBillOnline' else 'Pay Bill' end, amount, ref, msisdn, kind,
           case when kind = 'plain' then phone end, upper(name), at - interval '2 seconds', short_code,
           case when src = 'stk' then jsonb_build_object('MerchantRequestID', '29115-' || i, 'CheckoutRequestID', 'ws_CO_' || i,
                  'ResultCode', 0, 'ResultDesc', 'The service request is processed successfully.',
                  'CallbackMetadata', jsonb_build_object('Amount', amount / 100, 'MpesaReceiptNumber', rc,
                    'TransactionDate', pg_temp.daraja_time(at - interval '2 seconds'), 'PhoneNumber', phone))
                else jsonb_build_object('TransactionType', 'Pay Bill', 'TransID', rc, 'TransTime', pg_temp.daraja_time(at - interval '2 seconds'),
                  'TransAmount', to_char(amount / 100.0, 'FM999999990.00'), 'BusinessShortCode', short_code, 'BillRefNumber', ref,
                  'InvoiceNumber', '', 'OrgAccountBalance', '', 'ThirdPartyTransID', '', 'MSISDN', msisdn,
                  'FirstName', upper(split_part(name, ' ', 1)), 'MiddleName', '', 'LastName', upper(split_part(name, ' ', 2))) end,
           case when cls = 'rejected' then 'rejected' when cls = 'unclaimed' then 'unclaimed' else 'claimed' end,
           case when cls = 'rejected' then 'BusinessShortCode 600000 is not this paybill' end,
           case when cls in ('plan', 'credit') then person end,
           case when cls = 'tips' then person end,
           case when cls in ('rejected', 'unclaimed') then null when src = 'stk' then 'stk' when manual then 'manual'
                when kind = 'hashed' and pg_temp.h(i, 71, 3) = 0 then 'msisdn' else 'account' end,
           case when manual and src = 'c2b' and cls not in ('rejected', 'unclaimed') then ${ctx.adminId} end,
           case when manual and src = 'c2b' and cls not in ('rejected', 'unclaimed') then least(at + interval '2 hours', ${ctx.t0}) end,
           at, case when cls in ('plan', 'credit') then ${staffOf(ctx, 'person')} end
      from (
        select i, cls, at, pkg, person, who.name, who.phone, rc,
               case when cls in ('rejected', 'unclaimed') or pg_temp.h(i, 72, 5) <> 0 then 'c2b' else 'stk' end as src,
               case when cls = 'rejected' then '600000' else '600984' end as short_code,
               case when pg_temp.h(i, 74, 20) = 0 then true else false end as manual,
               case when cls = 'unclaimed' then (array[5000, 20000, 25000, 70000, 150000])[1 + pg_temp.h(i, 75, 5)]
                    when cls = 'rejected' then 10000
                    when cls = 'plan' then (case when pg_temp.h(i, 76, 10) < 7 then 100000 else 350000 end)
                    when cls = 'credit' then 50000 + pg_temp.h(i, 77, 450) * 100
                    when ${tipsBuysSql('i')} then pp.price_cents
                    else 400 + pg_temp.h(i, 78, 40) * 100 end::bigint as amount,
               case when cls = 'unclaimed' and ${ctx.shape.payments === 'even'} and pg_temp.h(i, 87, 2) = 0 then bc.code
                    when cls = 'unclaimed' then (array['', 'TIPS', 'PAY', 'BETS', 'ACCOUNT', 'MPESA'])[1 + pg_temp.h(i, 79, 6)]
                    when cls in ('plan', 'credit') then (case when pg_temp.h(i, 80, 4) = 0 then '0' || substr(who.phone, 4) else 'B4M' || person end)
                    when cls = 'tips' then (array[bc.code, bc.code, bc.code, lower(bc.code), ' ' || bc.code])[1 + pg_temp.h(i, 81, 5)]
                    else 'D2' end as ref,
               m.kind, case m.kind when 'plain' then who.phone when 'masked' then substr(who.phone, 1, 4) || ' ***** ' || right(who.phone, 3)
                              else pg_temp.sha(who.phone) end as msisdn
          from (
            select i, ${paymentClassSql(ctx, 'i')} as cls, ${timeOf(ctx, 'i', count, 730, 73)} as at, pg_temp.receipt(i) as rc,
                   (${packages})[1 + pg_temp.h(i, 82, ${ctx.packageIds.length})] as pkg,
                   case when ${paymentClassSql(ctx, 'i')} in ('plan', 'credit') then 1 + pg_temp.h(i, 83, ${n.clients})
                        else 1 + pg_temp.h(i, 84, ${n.subscribers}) end as person
              from generate_series(${lo}, ${hi}) i
          ) base
          cross join lateral (select case when cls in ('plan', 'credit') then pg_temp.client_name(person) else pg_temp.subscriber_name(person) end as name,
                                     case when cls in ('plan', 'credit') then pg_temp.client_phone(person) else pg_temp.subscriber_phone(person) end as phone) who
          cross join lateral (select case when cls = 'unclaimed' then (case when pg_temp.h(i, 85, 4) = 0 then 'hashed' else 'masked' end)
                                          when pg_temp.h(i, 72, 5) = 0 and cls <> 'rejected' then 'plain'
                                          when pg_temp.h(i, 86, 10) < 7 then 'hashed' when pg_temp.h(i, 86, 10) < 9 then 'plain' else 'masked' end as kind) m
          join price_packages pp on pp.id = base.pkg
          join bet_categories bc on bc.id = pp.bet_category_id
      ) p`);
  // What the claimed ones bought: the subscription's id is the payment's id.
  await batched(ctx, 'subscriptions bought by payments', 1, count, (lo, hi) => `
    insert into subscriptions (id, client_id, subscriber_id, plan_id, package_id, bet_category_id, medium, duration_days, amount_cents,
                               starts_at, expires_at, source, payment_id, created_by, created_at, lapsed_at, reminded_at, assigned_user_id)
    overriding system value
    select p.id, p.client_id, p.subscriber_id, pl.id, pp.id, pp.bet_category_id, pp.medium, coalesce(pl.duration_days, pp.duration_days),
           p.amount_cents, t.starts, t.expires, case when p.source = 'stk' then 'stk' else 'mpesa' end, p.id, p.claimed_by, t.starts,
           case when t.expires <= ${ctx.t0} then t.expires end,
           case when t.expires <= ${ctx.t0} + interval '2 days' then t.expires - interval '1 day' end, p.assigned_user_id
      from mpesa_payments p
      left join bet4me_plans pl on ${paymentClassSql(ctx, 'p.id')} = 'plan' and pl.price_cents = p.amount_cents
      left join price_packages pp on ${paymentClassSql(ctx, 'p.id')} = 'tips' and pp.id = (${packages})[1 + pg_temp.h(p.id, 82, ${ctx.packageIds.length})]
      cross join lateral (select coalesce(p.claimed_at, p.received_at) as starts,
                                 coalesce(p.claimed_at, p.received_at) + coalesce(pl.duration_days, pp.duration_days) * interval '1 day' as expires) t
     where p.id between ${lo} and ${hi} and p.status = 'claimed'
       and (${paymentClassSql(ctx, 'p.id')} = 'plan' or (${paymentClassSql(ctx, 'p.id')} = 'tips' and ${tipsBuysSql('p.id')}))`);
  await batched(ctx, 'ledger of payments', 1, count, (lo, hi) => `
    insert into ledger_entries (client_id, subscriber_id, amount_cents, kind, payment_id, subscription_id, created_by, created_at)
    select p.client_id, p.subscriber_id, e.amount, e.kind, p.id, e.subscription_id, p.claimed_by, coalesce(p.claimed_at, p.received_at)
      from mpesa_payments p
      left join subscriptions s on s.id = p.id
      cross join lateral (values (p.amount_cents, 'payment', null::bigint), (-s.amount_cents, 'subscription', s.id)) e(amount, kind, subscription_id)
     where p.id between ${lo} and ${hi} and p.status = 'claimed' and (e.kind = 'payment' or s.id is not null)`);
}

/**
 * Subscriptions staff added by hand (no payment, no ledger): one in five a client's plan. The tips
 * ones come in runs of three (k / 3) for one subscriber and package, so the retention figures see
 * renewals: the second and third follow the one before on time (six in ten), a day early (two in
 * ten, bought before the end, stacking after it), two days late (inside the default grace) or after
 * a gap of three weeks (a comeback). One in a hundred was refunded two hours after it was bought.
 */
async function manualSubscriptions(ctx: Context, firstId: number, count: number): Promise<void> {
  const { n } = ctx;
  const packages = `array[${ctx.packageIds.join(',')}]`;
  await batched(ctx, 'manual subscriptions', 1, count, (lo, hi) => `
    insert into subscriptions (id, client_id, subscriber_id, plan_id, package_id, bet_category_id, medium, duration_days, amount_cents,
                               starts_at, expires_at, source, created_by, created_at, lapsed_at, reminded_at, reversed_at, assigned_user_id)
    overriding system value
    select ${firstId} + k, case when is_client then client end,
           case when is_client then null else 1 + pg_temp.h(k / 3, 91, ${n.subscribers}) end,
           pl.id, pp.id, pp.bet_category_id, pp.medium, coalesce(pl.duration_days, pp.duration_days), coalesce(pl.price_cents, pp.price_cents),
           t.starts, t.expires, 'manual', (array[${[ctx.adminId, ...ctx.staffIds].join(',')}])[1 + pg_temp.h(k, 92, ${ctx.staffIds.length + 1})],
           t.bought, case when t.expires <= ${ctx.t0} then t.expires end,
           case when t.expires <= ${ctx.t0} + interval '2 days' then t.expires - interval '1 day' end,
           case when not is_client and pg_temp.h(k, 98, 100) = 0 then t.bought + interval '2 hours' end,
           case when is_client then ${staffOf(ctx, 'client')} end
      from (select k, pg_temp.h(k, 93, 5) = 0 as is_client, 1 + pg_temp.h(k, 90, ${n.clients}) as client, k % 3 as step,
                   pg_temp.h(k, 97, 10) as follow, ${timeOf(ctx, '(k - k % 3)', count, 730, 94)} as base
              from generate_series(${lo}, ${hi}) k) g
      left join bet4me_plans pl on g.is_client and pl.id = (case when pg_temp.h(k, 95, 10) < 7 then ${ctx.planIds.weekly} else ${ctx.planIds.monthly} end)
      left join price_packages pp on not g.is_client and pp.id = (${packages})[1 + pg_temp.h(k / 3, 96, ${ctx.packageIds.length})]
      cross join lateral (select coalesce(pl.duration_days, pp.duration_days) as days) d
      cross join lateral (select case when is_client or step = 0 then base
                                      else base + (step * d.days + case when follow = 8 then 2 when follow = 9 then 21 else 0 end) * interval '1 day' end as starts) s
      cross join lateral (select s.starts, s.starts + d.days * interval '1 day' as expires,
                                 case when not is_client and step > 0 and follow in (6, 7) then s.starts - interval '1 day' else s.starts end as bought) t`);
}

/**
 * The SMS outbox after two years: seven in ten tips to subscribers (deduplicated per tip version
 * and phone, as the fan-out does), reminders, staff messages to clients and subscribers. None is
 * left queued, so the API's dispatcher has nothing to send during the bench.
 */
async function sms(ctx: Context): Promise<void> {
  const { n } = ctx;
  const { rows } = await ctx.client.query<{ lo: number; hi: number }>(`select min(id)::int as lo, max(id)::int as hi from sms_tip_versions`);
  const versions = rows[0]!.hi - rows[0]!.lo + 1;
  await batched(ctx, 'SMS', 1, n.sms, (lo, hi) => `
    insert into sms_messages (id, intent, dedupe_key, recipient, body, parts, status, priority, client_id, subscriber_id,
                              provider_message_id, provider_status, network_code, cost_cents, attempts, next_attempt_at,
                              handed_at, failure_reason, created_by, created_at, sent_at, delivered_at, updated_at)
    overriding system value
    select i, intent,
           case when intent = 'tips.sms-tip' then 'sms-tip:' || (${rows[0]!.lo} + i % ${versions}) || ':' || phone
                else intent || ':' || i || ':bench' end,
           phone, body, parts, status, case when intent = 'tips.sms-tip' then 1 else 0 end,
           case when for_client then person end, case when for_client then null else person end,
           'ATXid_' || md5(i::text), case status when 'delivered' then 'Success' when 'sent' then 'Sent' when 'failed' then 'Failed' end,
           '63902', 80 * parts, 1, at, at, case when status = 'failed' then 'AbsentSubscriber' end,
           case when intent in ('client.message', 'tips-subscriber.message') then (array[${ctx.staffIds.join(',')}])[1 + pg_temp.h(i, 100, ${ctx.staffIds.length})] end,
           at, case when status <> 'unconfirmed' then at + interval '2 seconds' end,
           case when status = 'delivered' then at + interval '9 seconds' end, at
      from (
        select i, at, intent, intent = 'client.message' or (intent = 'subscription.reminder' and pg_temp.h(i, 101, 5) = 0) as for_client,
               case when pg_temp.h(i, 102, 100) < 80 then 'delivered' when pg_temp.h(i, 102, 100) < 92 then 'sent'
                    when pg_temp.h(i, 102, 100) < 98 then 'failed' else 'unconfirmed' end as status,
               1 + pg_temp.h(i, 103, 4) / 3 as parts
          from (select i, ${timeOf(ctx, 'i', n.sms, 730, 104)} as at,
                       case when pg_temp.h(i, 105, 10) < 7 then 'tips.sms-tip' when pg_temp.h(i, 105, 10) = 7 then 'subscription.reminder'
                            when pg_temp.h(i, 105, 10) = 8 then 'client.message' else 'tips-subscriber.message' end as intent
                  from generate_series(${lo}, ${hi}) i) a
      ) m
      cross join lateral (select case when for_client then 1 + (i / ${versions}) % ${n.clients} else 1 + (i / ${versions}) % ${n.subscribers} end as person) who
      cross join lateral (select case when for_client then pg_temp.client_phone(person) else pg_temp.subscriber_phone(person) end as phone,
                                 case when intent = 'tips.sms-tip' then 'D2 tips today: Gor Mahia vs AFC Leopards, Over 1.5 goals @1.45. Good luck!'
                                      when intent = 'subscription.reminder' then 'Your subscription expires tomorrow. Renew on paybill 600984.'
                                      else 'Hello, your bet for tonight is placed. Call us on 0700000001 for details.' end as body) msg`);
}

/** Moves every identity / serial sequence past the ids given explicitly. */
async function moveSequences(ctx: Context): Promise<void> {
  for (const table of ['clients', 'tips_subscribers', 'bets', 'bonuses', 'bonus_payments', 'mpesa_payments', 'subscriptions', 'sms_messages', 'tip_tickets']) {
    await ctx.client.query(`select setval(pg_get_serial_sequence('${table}', 'id'), greatest((select max(id) from ${table}), 1))`);
  }
}

/** What `npm run db:refresh-summaries` does: rebuilds the day summaries from the bulk-loaded rows. */
export async function refreshSummariesAfterBulkLoad(database: Database): Promise<void> {
  const started = Date.now();
  const rebuilt = await refreshSummaries(database.db);
  log(`summaries refreshed: ${rebuilt.toLocaleString('en-KE')} day rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const retentionStarted = Date.now();
  const subscribers = await rebuildRetentionSummaries(database.db, (done) => {
    if (done % 50_000 === 0) log(`retention summaries: ${done.toLocaleString('en-KE')} subscribers`);
  });
  log(`retention summaries rebuilt: ${subscribers.toLocaleString('en-KE')} subscribers in ${((Date.now() - retentionStarted) / 1000).toFixed(1)} s`);
}

async function recreateDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`--fresh needs a plain database name, not "${name}"`);
  const server = new URL(url);
  server.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  log(`database ${name} recreated`);
}

/**
 * The columns migration 0028's triggers keep (off during the load). Each client-owned row's staff
 * member (assigned_user_id) went in with the row, computed by the same staffOf as the client's
 * assignment: an UPDATE of every bet, bonus, payment and subscription after the load rewrote millions
 * of rows and each of their owner indexes (the trigram ones too) and took most of an hour at scale 1.
 * Here each client's latest Bet4Me expiry (running_until) is set, set-based, and the owners are checked
 * against client_assignments, as an UPDATE from it would have set them: the load stops on a mismatch.
 */
async function expiriesAndOwners(ctx: Context): Promise<void> {
  const started = Date.now();
  await ctx.client.query(`update clients c set running_until = s.until
    from (select client_id, max(expires_at) as until from subscriptions where client_id is not null group by client_id) s
   where s.client_id = c.id`);
  log(`expiries set in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const checked = Date.now();
  const wrong = await ownerMismatches(ctx.client);
  if (wrong.length > 0) throw new Error(`Owners that differ from client_assignments: ${wrong.map(({ table, rows }) => `${table} ${rows}`).join(', ')}`);
  log(`owners checked against client_assignments in ${((Date.now() - checked) / 1000).toFixed(0)} s`);
}

/** The tables whose assigned_user_id is not their client's assignment (null for no client or no assignment), with how many rows. */
export async function ownerMismatches(client: pg.Client): Promise<{ table: string; rows: number }[]> {
  const wrong: { table: string; rows: number }[] = [];
  for (const [table, clientColumn] of [['clients', 'id'], ['bets', 'client_id'], ['bonuses', 'client_id'], ['bonus_payments', 'client_id'],
    ['subscriptions', 'client_id'], ['mpesa_payments', 'client_id']] as const) {
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${table} t
      left join client_assignments a on a.client_id = t.${clientColumn} where t.assigned_user_id is distinct from a.user_id`);
    if (rows[0]!.n > 0) wrong.push({ table, rows: rows[0]!.n });
  }
  return wrong;
}

export async function generate(options: GenerateOptions): Promise<void> {
  const started = Date.now();
  if (options.fresh) await recreateDatabase(options.url);
  const database = await openDatabase({ url: options.url });
  const client = new pg.Client({ connectionString: options.url });
  try {
    await database.migrate();
    await ensureSettingDefaults(database.db);
    await client.connect();
    const { rows } = await client.query<{ n: number }>(`select (select count(*) from clients)::int + (select count(*) from mpesa_payments)::int as n`);
    if (rows[0]!.n > 0) throw new Error('This database already holds clients or payments; generate into an empty one (--fresh drops and recreates it).');
    await client.query(`set synchronous_commit = off`);
    // A bulk load, as an import or a restore: the summary triggers (and the foreign-key checks) are
    // off for this session, and the summaries are rebuilt once at the end (npm run db:refresh-summaries).
    // Without the privilege to do so the triggers run, which is slower and as exact.
    await client.query(`set session_replication_role = replica`).then(
      () => log('triggers off for the bulk load (session_replication_role = replica)'),
      () => log('triggers stay on (no privilege to set session_replication_role)'),
    );
    await client.query(`set maintenance_work_mem = '256MB'`);
    await client.query(`set work_mem = '64MB'`);
    const shape: Shape = { ...SHAPES.reference, ...options.shape };
    await client.query(helperFunctions(shape.names));
    const { rows: now } = await client.query<{ t0: string }>(`select now()::text as t0`);
    const n = counts(options.scale);
    log(`shape ${JSON.stringify(shape)}`);
    log(`scale ${options.scale}: ${Object.entries(n).map(([k, v]) => `${k} ${v.toLocaleString('en-KE')}`).join(', ')}`);
    const ctx: Context = {
      client,
      t0: `'${now[0]!.t0}'::timestamptz`,
      n,
      shape,
      batch: options.batch,
      adminId: 0,
      bigStaffId: 0,
      rareStaffId: 0,
      staffIds: [],
      packageIds: [],
      planIds: { weekly: 0, monthly: 0 },
    };
    await referenceData(ctx);
    await tipsRecord(ctx);
    await people(ctx);
    await betsAndBonuses(ctx);
    const { rows: paidByMpesa } = await client.query<{ n: number }>(`select count(*)::int as n from mpesa_payments`);
    await payments(ctx, Math.max(0, n.payments - paidByMpesa[0]!.n));
    const { rows: bought } = await client.query<{ n: number; max: number }>(`select count(*)::int as n, coalesce(max(id), 0)::int as max from subscriptions`);
    await manualSubscriptions(ctx, bought[0]!.max, Math.max(0, n.subscriptions - bought[0]!.n));
    await sms(ctx);
    await moveSequences(ctx);
    await expiriesAndOwners(ctx);
    // VACUUM as well: the visibility map lets index-only scans skip the heap, and autovacuum does
    // not then start on the fresh tables in the middle of a measurement.
    log('VACUUM ANALYZE');
    await client.query('vacuum analyze');
    await refreshSummariesAfterBulkLoad(database);
    // Once more: row versions replaced before the first VACUUM but not yet removable then (the owners
    // were once an update of every bonus, and a staff member's count of unpaid bonuses then read the
    // heap for every row instead of the index alone, decision 045); cheap when there are none.
    log('VACUUM');
    await client.query('vacuum');
    log(`done in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
  } finally {
    await client.end().catch(() => {});
    await database.close();
  }
}

/** The shape the command line asks for: a named shape, then any trait overridden; or what is wrong with it. */
export function shapeFromArgs(values: { shape?: string; clients?: string; 'open-bets'?: string; payments?: string; names?: string }): Shape | string {
  const name = values.shape ?? 'reference';
  if (!(name in SHAPES)) return `--shape is ${Object.keys(SHAPES).join(', ')}`;
  const shape: Shape = { ...SHAPES[name as ShapeName] };
  if (values.clients !== undefined) {
    if (!['reference', 'interleaved', 'block'].includes(values.clients)) return '--clients is reference, interleaved or block';
    shape.clients = values.clients as Shape['clients'];
  }
  if (values['open-bets'] !== undefined) {
    const open = Number(values['open-bets']);
    if (!Number.isInteger(open) || open < 0) return '--open-bets is a count of bets (0 or more)';
    shape.openBets = open;
  }
  if (values.payments !== undefined) {
    if (!['tips', 'even'].includes(values.payments)) return '--payments is tips or even';
    shape.payments = values.payments as Shape['payments'];
  }
  if (values.names !== undefined) {
    if (!['reference', 'kenyan'].includes(values.names)) return '--names is reference or kenyan';
    shape.names = values.names as Shape['names'];
  }
  return shape;
}

function cli(): void {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      fresh: { type: 'boolean', default: false },
      batch: { type: 'string', default: '100000' },
      shape: { type: 'string', default: 'reference' },
      clients: { type: 'string' },
      'open-bets': { type: 'string' },
      payments: { type: 'string' },
      names: { type: 'string' },
    },
  });
  const shape = shapeFromArgs(values);
  if (typeof shape === 'string') {
    console.error(shape);
    process.exit(2);
  }
  const url = process.env.DATABASE_URL;
  const scale = Number(values.scale);
  const batch = Number(values.batch);
  if (!url?.startsWith('postgres')) {
    console.error('Set DATABASE_URL to the PostgreSQL database to fill, e.g. postgres://postgres@127.0.0.1:5432/betdesk_bench');
    process.exit(2);
  }
  if (!(scale > 0) || !(batch >= 1000)) {
    console.error('--scale is a positive number (1 = 2,000,000 payments); --batch at least 1000');
    process.exit(2);
  }
  generate({ url, scale, fresh: values.fresh ?? false, batch, shape }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) cli();
