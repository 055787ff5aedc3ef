import { desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  BUSINESS_TIME_ZONE,
  centsToKes,
  centsToKesOrNull,
  type ReconciliationFigure,
  type ReconciliationRow,
  type StatementKind,
  type StatementSummary,
} from '@betdesk/contract';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { bonusPayments, clients, ledgerEntries, moneyChecks, mpesaPayments, mpesaPullRuns, mpesaStatementRows, mpesaStatements, refunds, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

const iso = (value: unknown): string | null => (value == null ? null : new Date(value as string).toISOString());

/**
 * Payments are found by the `received_at` index; a payment counts on the Nairobi day of its M-Pesa
 * time (TransTime), which a callback follows within seconds and a recovered payment equals. The
 * margin lets a callback that came late still land on the day M-Pesa received it.
 */
const RECEIVED_MARGIN = sql`interval '2 days'`;
export const paymentTime = sql`coalesce(p.trans_time, p.received_at)`;

export function paymentsBetween(from: Date, to: Date): SQL {
  return sql`p.received_at >= ${from.toISOString()}::timestamptz - ${RECEIVED_MARGIN}
         and p.received_at < ${to.toISOString()}::timestamptz + ${RECEIVED_MARGIN}
         and ${paymentTime} >= ${from.toISOString()}::timestamptz and ${paymentTime} < ${to.toISOString()}::timestamptz`;
}

/** How a statement's paid-in row compares with the payment of the same receipt. */
const comparison = sql`case
    when p.id is null then 'missing'
    when p.amount_cents = r.paid_in_cents
         and abs(extract(epoch from (${paymentTime} - r.completed_at))) <= 60 then 'matched'
    else 'mismatched' end`;

interface RowSql {
  receipt: string | null;
  paid_in_cents: string | null;
  completed_at: string | null;
  details: string | null;
  other_party_info: string | null;
  account_no: string | null;
  payment_id: string | null;
  trans_id: string | null;
  amount_cents: string | null;
  payment_at: string | null;
  status: ReconciliationRow['payment_status'];
  source: string | null;
  sender_name: string | null;
  bill_ref_number: string | null;
  paid_to: string | null;
  total_records?: string;
}

const statementSide = sql`r.receipt, r.paid_in_cents, r.completed_at, r.details, r.other_party_info, r.account_no`;
const noStatementSide = sql`null::text as receipt, null::bigint as paid_in_cents, null::timestamptz as completed_at,
  null::text as details, null::text as other_party_info, null::text as account_no`;
const paymentSide = sql`p.id as payment_id, coalesce(p.trans_id, p.raw->>'TransID') as trans_id, p.amount_cents,
  ${paymentTime} as payment_at, p.status, p.source, p.sender_name, p.bill_ref_number,
  coalesce(c.name, s.name) as paid_to`;
const payeeJoins = sql`left join ${clients} c on c.id = p.client_id left join ${tipsSubscribers} s on s.id = p.subscriber_id`;

function rowOf(r: RowSql): ReconciliationRow {
  return {
    transaction_reference: r.receipt ?? r.trans_id,
    statement_amount: centsToKesOrNull(r.paid_in_cents),
    statement_time: iso(r.completed_at),
    statement_details: r.details,
    other_party: r.other_party_info,
    account_number: r.account_no ?? r.bill_ref_number,
    payment_id: r.payment_id === null ? null : Number(r.payment_id),
    payment_amount: centsToKesOrNull(r.amount_cents),
    payment_time: iso(r.payment_at),
    payment_status: r.status,
    payment_source: r.source,
    sender_name: r.sender_name,
    paid_to: r.paid_to,
  };
}

export interface Page {
  page: number;
  perPage: number;
}

async function pageOf(db: Queryable, query: SQL, count: SQL, page: Page): Promise<{ rows: ReconciliationRow[]; total: number }> {
  const offset = (page.page - 1) * page.perPage;
  const { found, total } = await pageWithTotal<RowSql>(
    db,
    { query: sql`${query} limit ${page.perPage} offset ${offset}`, offset },
    sql`select count(*) as total from (${count}) counted`,
  );
  return { rows: found.map(rowOf), total };
}

// ---- Statements ----

export interface StatementHead {
  id: number;
  fileName: string | null;
  uploadedAt: Date;
  periodFrom: Date;
  periodTo: Date;
  rowCount: number;
}

export async function statementHead(db: Queryable, id: number): Promise<StatementHead | null> {
  const [found] = await db
    .select({
      id: mpesaStatements.id,
      fileName: mpesaStatements.fileName,
      uploadedAt: mpesaStatements.uploadedAt,
      periodFrom: mpesaStatements.periodFrom,
      periodTo: mpesaStatements.periodTo,
      rowCount: mpesaStatements.rowCount,
    })
    .from(mpesaStatements)
    .where(sql`${mpesaStatements.id} = ${id}`);
  return found ?? null;
}

/** Payments in the statement's period whose receipt the statement does not have. */
function notOnStatementSql(s: StatementHead, select: SQL): SQL {
  return sql`select ${select} from ${mpesaPayments} p ${payeeJoins}
     where ${paymentsBetween(s.periodFrom, new Date(s.periodTo.getTime() + 1000))}
       and p.status <> 'rejected'
       and not exists (select 1 from ${mpesaStatementRows} r where r.statement_id = ${s.id} and r.receipt = p.trans_id)`;
}

/** The comparison of a statement with the payments now (it changes when missing receipts are imported). */
export async function statementSummary(db: Queryable, s: StatementHead): Promise<StatementSummary> {
  const kinds = await rows<{ kind: string; n: string; paid_in: string; withdrawn: string }>(db, sql`
    select kind, count(*) as n, sum(paid_in_cents) as paid_in, sum(withdrawn_cents) as withdrawn
      from ${mpesaStatementRows} where statement_id = ${s.id} group by kind`);
  const [compared] = await rows<{ matched: string; missing: string; mismatched: string }>(db, sql`
    select count(*) filter (where k = 'matched') as matched, count(*) filter (where k = 'missing') as missing,
           count(*) filter (where k = 'mismatched') as mismatched
      from (select ${comparison} as k from ${mpesaStatementRows} r left join ${mpesaPayments} p on p.trans_id = r.receipt
             where r.statement_id = ${s.id} and r.kind = 'paid_in') compared`);
  const [absent] = await rows<{ n: string }>(db, sql`select count(*) as n from (${notOnStatementSql(s, sql`p.id`)}) absent`);
  const sum = (...names: string[]) => {
    const picked = kinds.filter((k) => names.includes(k.kind));
    return {
      rows: picked.reduce((n, k) => n + Number(k.n), 0),
      amount: centsToKes(picked.reduce((n, k) => n + Number(k.paid_in) + Number(k.withdrawn), 0)),
    };
  };
  return {
    statement_id: s.id,
    file_name: s.fileName,
    uploaded_at: s.uploadedAt.toISOString(),
    period_from: s.periodFrom.toISOString(),
    period_to: s.periodTo.toISOString(),
    rows: s.rowCount,
    paid_in_rows: sum('paid_in', 'reversed').rows,
    matched: Number(compared?.matched ?? 0),
    missing: Number(compared?.missing ?? 0),
    mismatched: Number(compared?.mismatched ?? 0),
    not_on_statement: Number(absent?.n ?? 0),
    paid_in: sum('paid_in'),
    withdrawals: sum('withdrawal'),
    charges: sum('charge'),
    reversals: sum('reversal'),
    reversed: sum('reversed'),
    other: sum('other'),
  };
}

/** One page of a statement's rows of one kind, oldest first. */
export async function statementRowsOfKind(
  db: Queryable,
  s: StatementHead,
  kind: StatementKind,
  page: Page,
): Promise<{ rows: ReconciliationRow[]; total: number }> {
  if (kind === 'not_on_statement') {
    const query = sql`${notOnStatementSql(s, sql`${noStatementSide}, ${paymentSide}, count(*) over() as total_records`)}
      order by p.received_at, p.id`;
    return pageOf(db, query, notOnStatementSql(s, sql`p.id`), page);
  }
  const from = sql`from ${mpesaStatementRows} r left join ${mpesaPayments} p on p.trans_id = r.receipt ${payeeJoins}
    where r.statement_id = ${s.id} and r.kind = 'paid_in' and ${comparison} = ${kind}`;
  return pageOf(db, sql`select ${statementSide}, ${paymentSide}, count(*) over() as total_records ${from} order by r.completed_at, r.id`, sql`select r.id ${from}`, page);
}

/** The statement's paid-in receipts no payment has, with what import needs to store them. */
export async function missingLines(db: Queryable, statementId: number, limit: number) {
  return rows<{
    receipt: string;
    paid_in_cents: string;
    completed_at: string;
    details: string | null;
    other_party_info: string | null;
    account_no: string | null;
    line: number;
  }>(db, sql`
    select r.receipt, r.paid_in_cents, r.completed_at, r.details, r.other_party_info, r.account_no, r.line
      from ${mpesaStatementRows} r
     where r.statement_id = ${statementId} and r.kind = 'paid_in'
       and not exists (select 1 from ${mpesaPayments} p where p.trans_id = r.receipt)
     order by r.completed_at, r.id
     limit ${limit}`);
}

// ---- The daily money check ----

export interface DaySql {
  day: string;
  received: string | null;
  received_count: string | null;
  claimed: string | null;
  unclaimed: string | null;
  refunded: string | null;
  rejected_count: string | null;
  statement_id: string | null;
  on_statement: string | null;
}

const dayStart = (day: SQL) => sql`(${day})::timestamp at time zone ${BUSINESS_TIME_ZONE}`;

/** The latest statement whose period touches the Nairobi day `day` (a date expression). */
const coveringStatement = (day: SQL) => sql`(select st.id from ${mpesaStatements} st
   where st.period_from < ${dayStart(sql`${day} + 1`)} and st.period_to >= ${dayStart(day)}
   order by st.uploaded_at desc, st.id desc limit 1)`;

/**
 * Per Nairobi day from `from` to `to` (YYYY-MM-DD): what came in, and what the latest statement
 * says. Claimed and unclaimed are net of what refunds returned, which is its own figure: received =
 * claimed + unclaimed + refunded, as the nightly money check (unbalancedDays) holds it.
 */
export async function dailyFigures(db: Queryable, from: string, to: string, rangeStart: Date, rangeEnd: Date): Promise<DaySql[]> {
  return rows<DaySql>(db, sql`
    with days as (select d::date as day from generate_series(${from}::date, ${to}::date, interval '1 day') d),
    pay as (
      select (${paymentTime} at time zone ${BUSINESS_TIME_ZONE})::date as day, p.status, p.amount_cents, p.refunded_cents
        from ${mpesaPayments} p where ${paymentsBetween(rangeStart, rangeEnd)}),
    figures as (
      select day,
             sum(amount_cents) filter (where status <> 'rejected') as received,
             count(*) filter (where status <> 'rejected') as received_count,
             sum(amount_cents - refunded_cents) filter (where status = 'claimed') as claimed,
             sum(amount_cents - refunded_cents) filter (where status = 'unclaimed') as unclaimed,
             sum(refunded_cents) filter (where status <> 'rejected') as refunded,
             count(*) filter (where status = 'rejected') as rejected_count
        from pay group by day),
    covered as (select d.day, ${coveringStatement(sql`d.day`)} as statement_id from days d)
    select d.day::text as day, f.received, f.received_count, f.claimed, f.unclaimed, f.refunded, f.rejected_count, c.statement_id,
           case when c.statement_id is null then null else
             (select coalesce(sum(r.paid_in_cents), 0) from ${mpesaStatementRows} r
               where r.statement_id = c.statement_id and r.kind = 'paid_in'
                 and r.completed_at >= ${dayStart(sql`d.day`)} and r.completed_at < ${dayStart(sql`d.day + 1`)}) end as on_statement
      from days d left join figures f on f.day = d.day join covered c on c.day = d.day
     order by d.day`);
}

/** The rows behind one figure of one day. */
export async function rowsOfFigure(
  db: Queryable,
  day: { text: string; start: Date; end: Date },
  figure: ReconciliationFigure,
  page: Page,
): Promise<{ rows: ReconciliationRow[]; total: number }> {
  const onDay = paymentsBetween(day.start, day.end);
  if (figure === 'received' || figure === 'claimed' || figure === 'unclaimed' || figure === 'rejected' || figure === 'refunded') {
    const status =
      figure === 'received'
        ? sql`p.status <> 'rejected'`
        : figure === 'refunded'
          ? sql`p.status <> 'rejected' and p.refunded_cents > 0`
          : sql`p.status = ${figure}`;
    const from = sql`from ${mpesaPayments} p ${payeeJoins} where ${onDay} and ${status}`;
    return pageOf(db, sql`select ${noStatementSide}, ${paymentSide}, count(*) over() as total_records ${from} order by ${paymentTime}, p.id`, sql`select p.id ${from}`, page);
  }
  const statement = sql`${coveringStatement(sql`${day.text}::date`)}`;
  const statementRowsOfDay = sql`from ${mpesaStatementRows} r left join ${mpesaPayments} p on p.trans_id = r.receipt ${payeeJoins}
    where r.statement_id = ${statement} and r.kind = 'paid_in'
      and r.completed_at >= ${day.start.toISOString()}::timestamptz and r.completed_at < ${day.end.toISOString()}::timestamptz`;
  if (figure === 'on_statement') {
    return pageOf(db, sql`select ${statementSide}, ${paymentSide}, count(*) over() as total_records ${statementRowsOfDay} order by r.completed_at, r.id`, sql`select r.id ${statementRowsOfDay}`, page);
  }
  // The difference: statement rows without their payment (or with another amount or time), and
  // the day's payments the statement does not have.
  const differing = sql`
    select ${statementSide}, ${paymentSide}, r.completed_at as at ${statementRowsOfDay} and ${comparison} <> 'matched'
    union all
    select ${noStatementSide}, ${paymentSide}, ${paymentTime} as at from ${mpesaPayments} p ${payeeJoins}
     where ${onDay} and p.status <> 'rejected' and ${statement} is not null
       and not exists (select 1 from ${mpesaStatementRows} r where r.statement_id = ${statement} and r.receipt = p.trans_id)`;
  return pageOf(db, sql`select *, count(*) over() as total_records from (${differing}) d order by at`, differing, page);
}

// --- The nightly money check: each invariant a query for the rows that break it ---

/** An offending row of an invariant, with `total_records` (how many offend in all). */
export type Example = Record<string, unknown>;

/** The first `limit` rows of an invariant's query, each with the count of them all. */
function examplesOf(db: Queryable, query: SQL, limit: number): Promise<Example[]> {
  return rows<Example>(db, sql`select *, count(*) over() as total_records from (${query}) v limit ${limit}`);
}

/** The Nairobi days (of the last `days`) whose money received is not claimed + unclaimed + refunded. */
export function unbalancedDays(db: Queryable, days: number, limit: number): Promise<Example[]> {
  return examplesOf(
    db,
    sql`select day, received, claimed, unclaimed, refunded from (
        select (coalesce(trans_time, received_at) at time zone ${BUSINESS_TIME_ZONE})::date::text as day,
               coalesce(sum(amount_cents) filter (where status <> 'rejected'), 0) as received,
               coalesce(sum(amount_cents - refunded_cents) filter (where status = 'claimed' and (client_id is not null or subscriber_id is not null)), 0) as claimed,
               coalesce(sum(amount_cents - refunded_cents) filter (where status = 'unclaimed' and client_id is null and subscriber_id is null), 0) as unclaimed,
               coalesce(sum(refunded_cents) filter (where status <> 'rejected'), 0) as refunded
          from ${mpesaPayments}
         where received_at >= now() - make_interval(days => ${days})
         group by 1) d
       where received <> claimed + unclaimed + refunded`,
    limit,
  );
}

/** Payments whose refunded amount is not exactly their done refunds (or exceeds the payment). */
export function untracedRefunds(db: Queryable, limit: number): Promise<Example[]> {
  return examplesOf(
    db,
    sql`select p.id, coalesce(p.trans_id, '') as receipt, p.amount_cents, p.refunded_cents, coalesce(r.done, 0) as done
        from ${mpesaPayments} p
        left join (select payment_id, sum(amount_cents) as done from ${refunds} where status = 'done' group by payment_id) r
          on r.payment_id = p.id
       where (p.refunded_cents <> 0 or r.done is not null)
         and (p.refunded_cents <> coalesce(r.done, 0) or p.refunded_cents > coalesce(p.amount_cents, 0))
       order by p.id`,
    limit,
  );
}

/** Payments whose ledger entries do not balance with their status and amount. */
export function unbalancedPaymentLedgers(db: Queryable, limit: number): Promise<Example[]> {
  return examplesOf(
    db,
    sql`select p.id, coalesce(p.trans_id, '') as receipt, p.status, p.amount_cents,
             coalesce(l.credited, 0) as credited, coalesce(l.total, 0) as total
        from ${mpesaPayments} p
        left join (
          select payment_id,
                 coalesce(sum(amount_cents) filter (where kind = 'payment'), 0)
                 + coalesce(sum(amount_cents) filter (where kind = 'adjustment' and amount_cents < 0
                                                     and subscription_id is null and bonus_payment_id is null), 0) as credited,
                 sum(amount_cents) as total,
                 coalesce(sum(amount_cents) filter (where kind = 'refund'), 0) as refunded
            from ${ledgerEntries} where payment_id is not null group by payment_id) l on l.payment_id = p.id
       where (p.status = 'claimed' and (coalesce(l.credited, 0) <> p.amount_cents or coalesce(l.total, 0) < 0
                                        or coalesce(l.total, 0) > p.amount_cents - p.refunded_cents
                                        or coalesce(l.refunded, 0) <> -p.refunded_cents))
          or (p.status <> 'claimed' and (coalesce(l.credited, 0) <> 0 or coalesce(l.total, 0) <> 0))
       order by p.id`,
    limit,
  );
}

/** Subscriptions bought by a payment that is not a claimed payment of the same person. */
export function purchasesOfUnclaimedPayments(db: Queryable, limit: number): Promise<Example[]> {
  return examplesOf(
    db,
    sql`select s.id, s.payment_id, p.status
        from ${subscriptions} s join ${mpesaPayments} p on p.id = s.payment_id
       where p.status <> 'claimed'
          or coalesce(p.client_id, 0) <> coalesce(s.client_id, 0)
          or coalesce(p.subscriber_id, 0) <> coalesce(s.subscriber_id, 0)
       order by s.id`,
    limit,
  );
}

/** Clients and subscribers whose entries do not sum to what their payments and purchases say. */
export function unbalancedHolders(db: Queryable, limit: number): Promise<Example[]> {
  return examplesOf(
    db,
    sql`with ledger as (
        select coalesce(client_id, 0) as client_id, coalesce(subscriber_id, 0) as subscriber_id, sum(amount_cents) as total
          from ${ledgerEntries} group by 1, 2),
      documents as (
        select client_id, subscriber_id, sum(amount) as total from (
          select coalesce(client_id, 0) as client_id, coalesce(subscriber_id, 0) as subscriber_id, amount_cents - refunded_cents as amount
            from ${mpesaPayments} where status = 'claimed'
          union all
          select coalesce(client_id, 0), coalesce(subscriber_id, 0), -amount_cents from ${subscriptions} where source <> 'manual'
          union all
          select coalesce(client_id, 0), coalesce(subscriber_id, 0), amount_cents
            from ${subscriptions} where source <> 'manual' and reversed_at is not null
          union all
          select client_id, 0, -amount_cents from ${bonusPayments} where source <> 'manual'
          union all
          -- A standalone adjustment (an opening balance) is its own document.
          select coalesce(client_id, 0), coalesce(subscriber_id, 0), amount_cents from ${ledgerEntries}
           where kind = 'adjustment' and payment_id is null and subscription_id is null and bonus_payment_id is null
        ) d group by 1, 2)
      select coalesce(l.client_id, d.client_id) as client_id, coalesce(l.subscriber_id, d.subscriber_id) as subscriber_id,
             coalesce(l.total, 0) as ledger, coalesce(d.total, 0) as documents
        from ledger l full join documents d on d.client_id = l.client_id and d.subscriber_id = l.subscriber_id
       where coalesce(l.total, 0) <> coalesce(d.total, 0)
       order by 1, 2`,
    limit,
  );
}

/** Refunds handed to M-Pesa not settled yet: sent without a result, unknown, or held for an admin's review. */
export function refundsAwaitingMpesa(db: Queryable): Promise<Example[]> {
  return rows<Example>(
    db,
    sql`select r.id, r.status, r.amount_cents, coalesce(p.trans_id, '') as receipt, r.sent_at
        from ${refunds} r join ${mpesaPayments} p on p.id = r.payment_id
       where r.status in ('unknown', 'held') or (r.status = 'sending' and r.sent_at is not null)
       order by r.id`,
  );
}

export async function insertMoneyCheck(db: Queryable, check: { ok: boolean; failures: unknown; unconfirmedRefunds: string[] }) {
  const [stored] = await db.insert(moneyChecks).values(check).returning();
  return stored!;
}

export async function latestMoneyCheck(db: Queryable) {
  const [last] = await db.select().from(moneyChecks).orderBy(desc(moneyChecks.ranAt), desc(moneyChecks.id)).limit(1);
  return last;
}

// --- Statements uploaded ---

/** The statement uploaded from a file of this hash, if any. */
export async function statementOfFile(db: Queryable, fileHash: string): Promise<number | null> {
  const [known] = await db.select({ id: mpesaStatements.id }).from(mpesaStatements).where(eq(mpesaStatements.fileHash, fileHash));
  return known?.id ?? null;
}

/** Stores a statement's head; null when the same file was stored at the same moment. */
export async function insertStatement(tx: Queryable, statement: typeof mpesaStatements.$inferInsert): Promise<number | null> {
  const [created] = await tx
    .insert(mpesaStatements)
    .values(statement)
    .onConflictDoNothing({ target: mpesaStatements.fileHash })
    .returning({ id: mpesaStatements.id });
  return created?.id ?? null;
}

export async function insertStatementRows(tx: Queryable, statementId: number, lines: Omit<typeof mpesaStatementRows.$inferInsert, 'statementId'>[]) {
  await tx.insert(mpesaStatementRows).values(lines.map((l) => ({ ...l, statementId })));
}

/** One page of the statements' ids, newest upload first. */
export async function statementIdsPage(db: Queryable, page: { perPage: number; offset: number }) {
  return db
    .select({ id: mpesaStatements.id, total: sql<string>`count(*) over()` })
    .from(mpesaStatements)
    .orderBy(desc(mpesaStatements.uploadedAt), desc(mpesaStatements.id))
    .limit(page.perPage)
    .offset(page.offset);
}

export async function statementCount(db: Queryable): Promise<number> {
  const [counted] = await db.select({ n: sql<string>`count(*)` }).from(mpesaStatements);
  return Number(counted?.n ?? 0);
}

// --- Pull Transactions runs ---

export async function lastPullRun(db: Queryable) {
  const [last] = await db.select().from(mpesaPullRuns).orderBy(desc(mpesaPullRuns.startedAt), desc(mpesaPullRuns.id)).limit(1);
  return last;
}

/** Where the last good pull's window ended. */
export async function lastGoodPullEnd(db: Queryable): Promise<Date | null> {
  const [lastGood] = await db
    .select({ windowTo: mpesaPullRuns.windowTo })
    .from(mpesaPullRuns)
    .where(eq(mpesaPullRuns.status, 'ok'))
    .orderBy(desc(mpesaPullRuns.windowTo))
    .limit(1);
  return lastGood?.windowTo ?? null;
}

export async function startPullRun(db: Queryable, run: { windowFrom: Date; windowTo: Date; startedAt: Date }): Promise<number> {
  const [started] = await db.insert(mpesaPullRuns).values(run).returning();
  return started!.id;
}

/** How a pull run ended, stamped with the database's time. */
export async function finishPullRun(
  db: Queryable,
  id: number,
  end: Pick<typeof mpesaPullRuns.$inferInsert, 'status' | 'pages' | 'rowsSeen' | 'rowsRecovered' | 'error'>,
) {
  const [done] = await db
    .update(mpesaPullRuns)
    .set({ ...end, finishedAt: sql`now()` })
    .where(eq(mpesaPullRuns.id, id))
    .returning();
  return done!;
}

/** Which of these receipts are stored already. */
export async function receiptsStored(db: Queryable, receipts: string[]): Promise<(string | null)[]> {
  const seen = await db.select({ transId: mpesaPayments.transId }).from(mpesaPayments).where(inArray(mpesaPayments.transId, receipts));
  return seen.map((s) => s.transId);
}
