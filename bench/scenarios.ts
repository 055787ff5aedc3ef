/**
 * The read scenarios of `npm run bench` (docs/performance.md): every list, search and sub-list of spec section 7,
 * the dashboard and the CSV exports, each with the bare-SQL floor of the same page — the same rows
 * fetched by a hand-written query an index serves, without totals — measured in the same run.
 *
 * Paths and permissions come from the contract, so a scenario follows the route it names and is run
 * for the staff user only where the permission matrix lets staff call it.
 */
import {
  search,
  cohortsReport,
  retentionReport,
  taxInvoices,
  taxSummary,
  activeClients,
  activeTipsSubscriptions,
  allSubscriptions,
  allTipsSubscriptions,
  can,
  clientBets,
  clientBonuses,
  clientPaidBonuses,
  clientSmsMessages,
  clientSubscriptions,
  closedBets,
  dashboard,
  dashboardIncome,
  exportActiveClients,
  exportAllSubscriptions,
  exportBonuses,
  exportClientBets,
  exportClients,
  exportClosedBets,
  exportOpenBets,
  exportPaidBonuses,
  exportRecentSubscriptions,
  exportUnpaidBonuses,
  exportUserClients,
  listBonuses,
  listClients,
  allPosts,
  listUsers,
  mpesaTransactions,
  openBets,
  paidBonuses,
  recentSubscriptions,
  RECENT_SUBSCRIPTION_DAYS,
  MAX_LIST_OFFSET,
  searchBonuses,
  searchClients,
  searchClosedBets,
  searchMpesaTransactions,
  showUserClients,
  assignClientsForm,
  smsLog,
  subscriberSmsMessages,
  tipsDeposits,
  trackRecord,
  activeSubscribers,
  unclaimedMpesaTransactions,
  unpaidBonuses,
  type Endpoint,
  type Role,
} from '@betdesk/contract';
import { RARE_SURNAME } from './accounts.ts';

/** What the scenarios need from the database, looked up once before the run. */
export interface Fixtures {
  /** The staff user the bench signs in as (~10,000 clients at scale 1). */
  staffId: number;
  /** The client with the most bets (admin's sub-lists). */
  busyClientId: number;
  /** The staff user's client with the most bets (staff's sub-lists). */
  staffClientId: number;
  /** The staff user has no client: their sub-lists ask for someone else's and must answer 404. */
  staffHasNoClient: boolean;
  /** The client with the most SMS, and the staff user's client with the most SMS. */
  smsClientId: number;
  staffSmsClientId: number;
  /** The tips subscriber with the most SMS. */
  busySubscriberId: number;
  /** A surname ~5 % of people carry (~100,000 payments at scale 1). */
  surname: string;
  /** A tips subscriber's phone as it is typed (07…), matching their payments. */
  phone: string;
  /** An M-Pesa receipt (TransID) from the middle of the history. */
  receipt: string;
  /** The bet category whose two-year record is read (D2). */
  recordCategoryId: number;
}

export type Params = Record<string, string | number>;

export interface FloorContext {
  f: Fixtures;
  role: Role;
  /** Rows of the page (perPage, or the route's whole answer when it is not paged). */
  limit: number;
  /** Rows before the page ((page - 1) x perPage). */
  offset: number;
}

export interface ReadScenario {
  /** Unique label: the path plus what distinguishes it (a search). */
  name: string;
  endpoint: Endpoint;
  /** Takes page/perPage (the spec's paged lists, and the formerly unbounded ones, decision 015). */
  paged: boolean;
  kind: 'list' | 'search' | 'dashboard' | 'record' | 'retention' | 'cohorts';
  /** Reads one client's rows: a staff user with no client asks for someone else's (404 expected). */
  oneClient?: true;
  /** Query parameters beyond paging; a client's sub-list names one of the staff user's clients for staff. */
  params?: (f: Fixtures, role: Role) => Params;
  /** Roles it is run for when the permission matrix allows (default both). */
  roles?: readonly Role[];
  /** Page sizes it is run at when paged (default 50 and 2000). */
  perPages?: readonly number[];
  /** The page asked for (default 1). */
  page?: number;
  /** The same page in bare SQL; null where no single query is "the same page" (the dashboard). */
  floor: ((ctx: FloorContext) => string) | null;
}

export interface ExportScenario {
  name: string;
  endpoint: Endpoint;
  params?: (f: Fixtures) => Params;
}

/** Rows of a staff user's clients only (the services' scope): the owner column of the row's table (alias.client_id or c.id). */
const scoped = (ctx: FloorContext, column: string) =>
  ctx.role === 'staff' ? ` and ${column.split('.')[0]}.assigned_user_id = ${ctx.f.staffId}` : '';
const like = (text: string) => `'%${text.replaceAll("'", "''").replaceAll('%', '\\%').replaceAll('_', '\\_')}%'`;
const digitsOf = (phone: string) => phone.replace(/\D/g, '').replace(/^0/, '254');

/** An Africa/Nairobi business day (UTC+3 all year), `daysAgo` before today. */
export function nairobiDay(daysAgo: number): string {
  return new Date(Date.now() + 3 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}
/** The last 30 business days as the lists' from/to, and as SQL bounds of a timestamp column. */
const last30 = () => ({ from: nairobiDay(29), to: nairobiDay(0) });
const inLast30 = (column: string) =>
  ` and ${column} >= ('${nairobiDay(29)}'::date)::timestamp at time zone 'Africa/Nairobi'` +
  ` and ${column} < ('${nairobiDay(-1)}'::date)::timestamp at time zone 'Africa/Nairobi'`;

const clientCols = `c.id, c.name, c.phone, c.email, c.maximum_stake_cents, c.last_login, c.created_at`;
const betCols = `b.id, b.client_id, b.stake_cents, b.description, b.profit_cents, b.status, b.opened_at, b.closed_at, c.name, c.phone`;
const bonusCols = `bo.id, bo.bet_id, bo.client_id, bo.amount_cents, bo.rate_percent, bo.earned_at, c.name, c.phone`;
const paymentCols = `p.id, p.trans_id, p.source, p.amount_cents, p.bill_ref_number, p.msisdn, p.sender_phone, p.sender_name,
  p.trans_time, p.status, p.client_id, p.subscriber_id, p.received_at, c.name as client_name, s.name as subscriber_name`;
const paymentJoins = `left join clients c on c.id = p.client_id left join tips_subscribers s on s.id = p.subscriber_id`;
const subscriptionCols = `x.id, x.client_id, x.subscriber_id, x.plan_id, x.package_id, x.medium, x.duration_days, x.amount_cents,
  x.starts_at, x.expires_at, x.source, x.created_at`;
const smsCols = `m.id, m.intent, m.recipient, m.body, m.parts, m.status, m.client_id, m.subscriber_id, m.cost_cents, m.created_at,
  m.sent_at, m.delivered_at, m.failure_reason`;

const paymentPage = (where: string) => (ctx: FloorContext) =>
  `select ${paymentCols} from mpesa_payments p ${paymentJoins} where ${where} order by p.paid_at desc, p.id desc limit ${ctx.limit}`;
const closedBetPage = (extra: (ctx: FloorContext) => string) => (ctx: FloorContext) =>
  `select ${betCols} from bets b join clients c on c.id = b.client_id
    where b.status = 'closed'${extra(ctx)}${scoped(ctx, 'b.client_id')} order by b.closed_at desc, b.id desc limit ${ctx.limit}`;
const bonusPage = (extra: (ctx: FloorContext) => string) => (ctx: FloorContext) =>
  `select ${bonusCols} from bonuses bo join clients c on c.id = bo.client_id
    where true${extra(ctx)}${scoped(ctx, 'bo.client_id')} order by bo.earned_at desc, bo.id desc limit ${ctx.limit}`;

/** The twelve whole months before this one: a year of retention figures. */
const lastYear = () => {
  const thisMonth = `${nairobiDay(0).slice(0, 7)}-01`;
  const y = Number(thisMonth.slice(0, 4));
  return { from: `${y - 1}${thisMonth.slice(4)}`, to: new Date(Date.parse(thisMonth) - 86_400_000).toISOString().slice(0, 10) };
};
/** Reports → Retention (decision 043), admins only: each figure over a year by month, each split, the 24-month cohort grid. */
const retentionScenarios: ReadScenario[] = [
  ...([undefined, 'category', 'medium', 'channel'] as const).map(
    (split): ReadScenario => ({
      name: `GET /api/reports/retention (a year by month${split ? `, by ${split}` : ''})`,
      endpoint: retentionReport,
      paged: false,
      kind: 'retention',
      roles: ['admin'],
      params: () => ({ ...lastYear(), group: 'month', ...(split ? { group_by: split } : {}) }),
      floor: null,
    }),
  ),
  {
    name: 'GET /api/reports/retention (a year to today by week)',
    endpoint: retentionReport,
    paged: false,
    kind: 'retention',
    roles: ['admin'],
    params: () => ({ from: nairobiDay(364), to: nairobiDay(0), group: 'week' }),
    floor: null,
  },
  {
    name: 'GET /api/reports/cohorts (24 months)',
    endpoint: cohortsReport,
    paged: false,
    kind: 'cohorts',
    roles: ['admin'],
    params: () => ({ from: `${nairobiDay(730).slice(0, 7)}-01`, to: nairobiDay(0), by: 'subscribers' }),
    floor: null,
  },
];

export const readScenarios: ReadScenario[] = [
  ...retentionScenarios,
  { name: 'GET /api/dashboard', endpoint: dashboard, paged: false, kind: 'dashboard', floor: null },
  { name: 'GET /api/dashboard/income', endpoint: dashboardIncome, paged: false, kind: 'dashboard', floor: null },

  // The track record of one category over two years of daily tickets (~730 tickets, ~2,000 legs),
  // computed from the results at each request; the floor reads the same legs.
  {
    name: 'GET /api/tips/record (one category, two years)',
    endpoint: trackRecord,
    paged: false,
    kind: 'record',
    params: (f) => ({ bet_category_id: f.recordCategoryId, from: nairobiDay(729), to: nairobiDay(0) }),
    floor: (ctx) => `select t.id, t.match_date, t.published_at, s.home, s.away, s.competition, s.kickoff_at, s.market, s.pick,
                            s.odds_hundredths, s.result
                       from tip_tickets t join tip_selections s on s.ticket_id = t.id
                      where t.published_at < t.first_kickoff_at and t.bet_category_id = ${ctx.f.recordCategoryId}
                        and t.match_date >= '${nairobiDay(729)}' and t.match_date <= '${nairobiDay(0)}'
                      order by t.match_date, t.first_kickoff_at, t.id, s.position`,
  },

  // Clients and their sub-lists.
  {
    name: 'GET /api/clients',
    endpoint: listClients,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${clientCols} from clients c where c.deleted_at is null${scoped(ctx, 'c.id')}
                      order by c.created_at desc, c.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/clients/search (surname)',
    endpoint: searchClients,
    paged: true,
    kind: 'search',
    params: (f) => ({ search: f.surname }),
    floor: (ctx) => `select ${clientCols} from clients c where c.deleted_at is null and c.name ilike ${like(ctx.f.surname)}${scoped(ctx, 'c.id')}
                      order by c.created_at desc, c.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/clients/search (rare name)',
    endpoint: searchClients,
    paged: true,
    kind: 'search',
    params: () => ({ search: RARE_SURNAME }),
    floor: (ctx) => `select ${clientCols} from clients c where c.deleted_at is null and c.name ilike ${like(RARE_SURNAME)}${scoped(ctx, 'c.id')}
                      order by c.created_at desc, c.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/clients/active',
    endpoint: activeClients,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${clientCols} from clients c
                      where c.deleted_at is null and c.running_until > now()
                      ${scoped(ctx, 'c.id')} order by c.name, c.id limit ${ctx.limit}`,
  },
  ...(
    [
      ['subscriptions', clientSubscriptions, (ctx: FloorContext, id: number) =>
        `select ${subscriptionCols} from subscriptions x where x.client_id = ${id} order by x.created_at desc, x.id desc limit ${ctx.limit}`],
      ['bets', clientBets, (ctx: FloorContext, id: number) =>
        `select ${betCols} from bets b join clients c on c.id = b.client_id where b.client_id = ${id} order by b.opened_at desc, b.id desc limit ${ctx.limit}`],
      ['bonuses', clientBonuses, (ctx: FloorContext, id: number) =>
        `select ${bonusCols} from bonuses bo join clients c on c.id = bo.client_id where bo.client_id = ${id} order by bo.earned_at desc, bo.id desc limit ${ctx.limit}`],
      ['paid-bonuses', clientPaidBonuses, (ctx: FloorContext, id: number) =>
        `select bp.id, bp.amount_cents, bp.paid_at, bp.description, bp.client_id from bonus_payments bp where bp.client_id = ${id}
          order by bp.paid_at desc, bp.id desc limit ${ctx.limit}`],
    ] as const
  ).map(([what, endpoint, sql]): ReadScenario => ({
    name: `GET /api/clients/${what} (busiest client)`,
    endpoint,
    paged: true,
    kind: 'list',
    oneClient: true,
    params: (f, role) => ({ client_id: role === 'staff' ? f.staffClientId : f.busyClientId }),
    floor: (ctx) => sql(ctx, ctx.role === 'staff' ? ctx.f.staffClientId : ctx.f.busyClientId),
  })),

  // Bets.
  {
    name: 'GET /api/bets/open',
    endpoint: openBets,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${betCols} from bets b join clients c on c.id = b.client_id where b.status = 'open'${scoped(ctx, 'b.client_id')}
                      order by b.opened_at, b.id limit ${ctx.limit}`,
  },
  { name: 'GET /api/bets/closed', endpoint: closedBets, paged: true, kind: 'list', floor: closedBetPage(() => '') },
  {
    name: 'GET /api/bets/closed (last 30 days)',
    endpoint: closedBets,
    paged: true,
    kind: 'list',
    params: last30,
    floor: closedBetPage(() => inLast30('b.closed_at')),
  },
  {
    name: 'GET /api/bets/closed (sort=profit)',
    endpoint: closedBets,
    paged: true,
    kind: 'list',
    params: () => ({ sort: 'profit', dir: 'desc' }),
    floor: (ctx) => `select ${betCols} from bets b join clients c on c.id = b.client_id
                      where b.status = 'closed'${scoped(ctx, 'b.client_id')} order by b.profit_cents desc, b.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/bets/closed/search (Gor)',
    endpoint: searchClosedBets,
    paged: true,
    kind: 'search',
    params: () => ({ search: 'Gor' }),
    floor: closedBetPage(() => ` and b.description ilike '%Gor%'`),
  },
  {
    name: 'GET /api/bets/closed/search (rare name)',
    endpoint: searchClosedBets,
    paged: true,
    kind: 'search',
    params: () => ({ search: RARE_SURNAME }),
    floor: closedBetPage(() => ` and c.name ilike ${like(RARE_SURNAME)}`),
  },
  {
    name: 'GET /api/bets/closed/search (surname)',
    endpoint: searchClosedBets,
    paged: true,
    kind: 'search',
    params: (f) => ({ search: f.surname }),
    floor: closedBetPage((ctx) => ` and c.name ilike ${like(ctx.f.surname)}`),
  },

  // Bonuses.
  { name: 'GET /api/bonuses', endpoint: listBonuses, paged: true, kind: 'list', floor: bonusPage(() => '') },
  {
    name: 'GET /api/bonuses/search (surname)',
    endpoint: searchBonuses,
    paged: true,
    kind: 'search',
    params: (f) => ({ search: f.surname }),
    floor: bonusPage((ctx) => ` and c.name ilike ${like(ctx.f.surname)}`),
  },
  {
    name: 'GET /api/bonuses/paid',
    endpoint: paidBonuses,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select bp.id, bp.amount_cents, bp.paid_at, bp.description, bp.client_id, c.name, c.phone
                       from bonus_payments bp join clients c on c.id = bp.client_id where true${scoped(ctx, 'bp.client_id')}
                      order by bp.paid_at desc, bp.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/bonuses/unpaid',
    endpoint: unpaidBonuses,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${bonusCols} from bonuses bo join clients c on c.id = bo.client_id
                      where bo.paid_cents < bo.amount_cents${scoped(ctx, 'bo.client_id')} order by bo.earned_at, bo.id limit ${ctx.limit}`,
  },

  // Bet4Me subscriptions.
  {
    name: 'GET /api/subscriptions',
    endpoint: recentSubscriptions,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${subscriptionCols}, c.name from subscriptions x join clients c on c.id = x.client_id
                      where x.client_id is not null and x.created_at >= now() - interval '${RECENT_SUBSCRIPTION_DAYS} days'
                      order by x.created_at desc, x.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/subscriptions/all',
    endpoint: allSubscriptions,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${subscriptionCols}, c.name from subscriptions x join clients c on c.id = x.client_id
                      where x.client_id is not null order by x.created_at desc, x.id desc limit ${ctx.limit}`,
  },

  // M-Pesa.
  { name: 'GET /api/mpesa-transactions', endpoint: mpesaTransactions, paged: true, kind: 'list', floor: paymentPage('true') },
  {
    name: `GET /api/mpesa-transactions (page ${MAX_LIST_OFFSET / 50}, the deepest)`,
    endpoint: mpesaTransactions,
    paged: true,
    kind: 'list',
    page: MAX_LIST_OFFSET / 50,
    perPages: [50],
    // A deferred join: the offset walks the (paid_at, id) index only, then 50 rows are read whole.
    floor: (ctx) => `select ${paymentCols} from (select id from mpesa_payments order by paid_at desc, id desc
                      limit ${ctx.limit} offset ${ctx.offset}) page join mpesa_payments p on p.id = page.id ${paymentJoins}
                      order by p.paid_at desc, p.id desc`,
  },
  {
    name: 'GET /api/mpesa-transactions (sort=amount, dir=asc)',
    endpoint: mpesaTransactions,
    paged: true,
    kind: 'list',
    params: () => ({ sort: 'amount', dir: 'asc' }),
    floor: (ctx) =>
      `select ${paymentCols} from mpesa_payments p ${paymentJoins} order by p.amount_cents, p.id limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/mpesa-transactions (last 30 days)',
    endpoint: mpesaTransactions,
    paged: true,
    kind: 'list',
    params: last30,
    floor: paymentPage(`true${inLast30('p.paid_at')}`),
  },
  {
    name: 'GET /api/mpesa-transactions/search (surname)',
    endpoint: searchMpesaTransactions,
    paged: true,
    kind: 'search',
    params: (f) => ({ search: f.surname }),
    floor: (ctx) => paymentPage(`p.sender_name ilike ${like(ctx.f.surname)}`)(ctx),
  },
  {
    name: 'GET /api/mpesa-transactions/search (Gor)',
    endpoint: searchMpesaTransactions,
    paged: true,
    kind: 'search',
    params: () => ({ search: 'Gor' }),
    floor: (ctx) => paymentPage(`p.sender_name ilike '%Gor%'`)(ctx),
  },
  {
    name: 'GET /api/mpesa-transactions/search (rare name)',
    endpoint: searchMpesaTransactions,
    paged: true,
    kind: 'search',
    params: () => ({ search: RARE_SURNAME }),
    floor: (ctx) => paymentPage(`p.sender_name ilike ${like(RARE_SURNAME)}`)(ctx),
  },
  {
    name: 'GET /api/mpesa-transactions/search (phone)',
    endpoint: searchMpesaTransactions,
    paged: true,
    kind: 'search',
    params: (f) => ({ search: f.phone }),
    floor: (ctx) =>
      paymentPage(`(p.sender_phone = '${digitsOf(ctx.f.phone)}' or p.msisdn = encode(sha256('${digitsOf(ctx.f.phone)}'::bytea), 'hex'))`)(ctx),
  },
  {
    name: 'GET /api/mpesa-transactions/search (receipt)',
    endpoint: searchMpesaTransactions,
    paged: true,
    kind: 'search',
    params: (f) => ({ search: f.receipt }),
    floor: (ctx) => paymentPage(`p.trans_id = '${ctx.f.receipt}'`)(ctx),
  },
  // One search for anything (decision 067): each kind a bounded lookup, ≤ 100 ms p95 at reference scale.
  // No floor: one answer is several lookups (receipts, people, bets, refunds, invoices).
  ...(
    [
      ['receipt, first six characters', (f: Fixtures) => f.receipt.slice(0, 6)],
      ['receipt', (f: Fixtures) => f.receipt],
      ['phone, 07…', (f: Fixtures) => f.phone],
      ['phone, +254…', (f: Fixtures) => `+254${f.phone.replace(/\D/g, '').replace(/^0/, '')}`],
      ['surname', (f: Fixtures) => f.surname],
      ['rare name', () => RARE_SURNAME],
      ['a number', () => '1234'],
    ] as const
  ).map(
    ([what, q]): ReadScenario => ({ name: `GET /api/search (${what})`, endpoint: search, paged: false, kind: 'search', params: (f) => ({ q: q(f) }), floor: null }),
  ),
  { name: 'GET /api/mpesa-transactions/unclaimed', endpoint: unclaimedMpesaTransactions, paged: true, kind: 'list', floor: paymentPage(`p.status = 'unclaimed'`) },

  // Tips.
  {
    name: 'GET /api/tips/posts/all',
    endpoint: allPosts,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select p.id, p.title, p.post_category_id, p.match_date, p.created_at from tips_posts p where p.deleted_at is null
                      order by p.match_date desc, p.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/tips/subscribers/active',
    endpoint: activeSubscribers,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select t.id, t.name, t.phone, t.joined_at from tips_subscribers t
                      where t.id in (select subscriber_id from subscriptions where expires_at > now() and subscriber_id is not null)
                      order by t.joined_at desc, t.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/tips/subscribers/active (status=all)',
    endpoint: activeSubscribers,
    paged: true,
    kind: 'list',
    params: () => ({ status: 'all' }),
    roles: ['admin'],
    floor: (ctx) => `select t.id, t.name, t.phone, t.joined_at from tips_subscribers t order by t.joined_at desc, t.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/tips/subscriptions/all',
    endpoint: allTipsSubscriptions,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${subscriptionCols}, t.name, t.phone from subscriptions x join tips_subscribers t on t.id = x.subscriber_id
                      where x.subscriber_id is not null order by x.created_at desc, x.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/tips/subscriptions/active',
    endpoint: activeTipsSubscriptions,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${subscriptionCols}, t.name, t.phone from subscriptions x join tips_subscribers t on t.id = x.subscriber_id
                      where x.subscriber_id is not null and x.expires_at > now() order by x.expires_at, x.id limit ${ctx.limit}`,
  },
  { name: 'GET /api/tips/mpesa/all', endpoint: tipsDeposits, paged: true, kind: 'list', floor: paymentPage(`p.status <> 'rejected' and p.subscriber_id is not null`) },

  // SMS.
  {
    name: 'GET /api/sms/log',
    endpoint: smsLog,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select ${smsCols} from sms_messages m order by m.created_at desc, m.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/sms/client-messages (client with most SMS)',
    endpoint: clientSmsMessages,
    paged: true,
    kind: 'list',
    oneClient: true,
    params: (f, role) => ({ client_id: role === 'staff' ? f.staffSmsClientId : f.smsClientId }),
    floor: (ctx) => `select ${smsCols} from sms_messages m where m.client_id = ${ctx.role === 'staff' ? ctx.f.staffSmsClientId : ctx.f.smsClientId}
                      order by m.id desc limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/sms/subscriber-messages (busiest subscriber)',
    endpoint: subscriberSmsMessages,
    paged: true,
    kind: 'list',
    params: (f) => ({ subscriber_id: f.busySubscriberId }),
    floor: (ctx) => `select ${smsCols} from sms_messages m where m.subscriber_id = ${ctx.f.busySubscriberId} order by m.id desc limit ${ctx.limit}`,
  },

  // Users.
  {
    name: 'GET /api/users',
    endpoint: listUsers,
    paged: false,
    kind: 'list',
    floor: () => `select u.id, u.name, u.email, u.phone_number, u.category_id, (select count(*) from client_assignments a where a.user_id = u.id) as clients
                    from users u where u.deleted_at is null order by u.name`,
  },
  {
    name: 'GET /api/users/show-clients (big staff user)',
    endpoint: showUserClients,
    paged: true,
    kind: 'list',
    params: (f) => ({ user_id: f.staffId }),
    floor: (ctx) => `select ${clientCols} from client_assignments a join clients c on c.id = a.client_id
                      where a.user_id = ${ctx.f.staffId} and c.deleted_at is null order by c.name limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/users/assign-clients',
    endpoint: assignClientsForm,
    paged: true,
    kind: 'list',
    floor: (ctx) => `select c.id, c.name, c.phone, a.user_id from clients c left join client_assignments a on a.client_id = c.id
                      where c.deleted_at is null order by c.name, c.id limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/users/assign-clients (surname)',
    endpoint: assignClientsForm,
    paged: true,
    kind: 'search',
    params: (f) => ({ search: f.surname }),
    floor: (ctx) => `select c.id, c.name, c.phone, a.user_id from clients c left join client_assignments a on a.client_id = c.id
                      where c.deleted_at is null and c.name ilike ${like(ctx.f.surname)} order by c.name, c.id limit ${ctx.limit}`,
  },
  // Decision 035: the Tax screen's lists (admins) over what the tax backlog scenario queued.
  {
    name: 'GET /api/tax/invoices',
    endpoint: taxInvoices,
    paged: true,
    kind: 'list',
    roles: ['admin'],
    params: () => last30(),
    floor: (ctx) => `select * from tax_invoices where created_at >= now() - interval '30 days' order by created_at desc nulls last, id desc nulls last limit ${ctx.limit}`,
  },
  {
    name: 'GET /api/tax/summary (this month)',
    endpoint: taxSummary,
    paged: false,
    kind: 'dashboard',
    roles: ['admin'],
    params: () => ({ month: nairobiDay(0).slice(0, 7) }),
    floor: null,
  },
];

/** The CSV exports, streamed whole; the closed bets are the 2,000,000-row one at scale 1. */
export const exportScenarios: ExportScenario[] = [
  { name: 'GET /api/bets/closed/export', endpoint: exportClosedBets },
  { name: 'GET /api/bets/open/export', endpoint: exportOpenBets },
  { name: 'GET /api/bonuses/export', endpoint: exportBonuses },
  { name: 'GET /api/bonuses/paid/export', endpoint: exportPaidBonuses },
  { name: 'GET /api/bonuses/unpaid/export', endpoint: exportUnpaidBonuses },
  { name: 'GET /api/clients/export', endpoint: exportClients },
  { name: 'GET /api/clients/active/export', endpoint: exportActiveClients },
  { name: 'GET /api/clients/bets/export (busiest client)', endpoint: exportClientBets, params: (f) => ({ client_id: f.busyClientId }) },
  { name: 'GET /api/subscriptions/export', endpoint: exportRecentSubscriptions },
  { name: 'GET /api/subscriptions/all/export', endpoint: exportAllSubscriptions },
  { name: 'GET /api/users/show-clients/export (big staff user)', endpoint: exportUserClients, params: (f) => ({ user_id: f.staffId }) },
  { name: 'GET /api/bets/closed/export?search=Gor (filtered)', endpoint: exportClosedBets, params: () => ({ search: 'Gor' }) },
];

/** Whether a role may call an endpoint (the contract's permission matrix); portal endpoints answer no staff role. */
export function allowed(endpoint: Endpoint, role: Role): boolean {
  if (endpoint.access === 'portal') return false;
  return endpoint.access === 'public' || can(role, endpoint.access);
}

/** SQL that finds the fixtures in a generated database. */
export const fixtureQueries = {
  staffId: (email: string) => `select id from users where email = '${email.replaceAll("'", "''")}'`,
  busyClientId: `select client_id as id from bets group by client_id order by count(*) desc, client_id limit 1`,
  staffClientId: (staffId: number) => `select b.client_id as id from bets b where b.assigned_user_id = ${staffId}
                                        group by b.client_id order by count(*) desc, b.client_id limit 1`,
  smsClientId: `select client_id as id from sms_messages where client_id is not null group by client_id order by count(*) desc, client_id limit 1`,
  staffSmsClientId: (staffId: number) => `select m.client_id as id from sms_messages m join client_assignments a on a.client_id = m.client_id and a.user_id = ${staffId}
                                           group by m.client_id order by count(*) desc, m.client_id limit 1`,
  busySubscriberId: `select subscriber_id as id from sms_messages where subscriber_id is not null group by subscriber_id order by count(*) desc, subscriber_id limit 1`,
  /** A subscriber's phone with a payment sent from a plain (unhashed) number, as staff type it (07…). */
  phone: `select '0' || substr(sender_phone, 4) as v from mpesa_payments where sender_phone like '2547%' order by id limit 1`,
  recordCategoryId: `select id from bet_categories where code = 'D2'`,
  receipt: `select trans_id as v from mpesa_payments where trans_id is not null order by id offset (select count(*) / 2 from mpesa_payments) limit 1`,
};
