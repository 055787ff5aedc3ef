// The payments and tips deposits lists, their exports and totals, and the dashboard's newest payments.
import { sql, type SQL } from 'drizzle-orm';
import { centsToKes, centsToKesOrNull, normaliseKenyanPhone, PAYER_NUMBER_HIDDEN, type MpesaTransaction, type SortOf, type TipsDeposit } from '@betdesk/contract';
import { rows } from '../../../db/rows.ts';
import { cappedCount, containing, countCapOf, dayRangeOf, exactCount, inDays, orderSql, pageOf, pageRows, type ListCount, type Page, type ListRequest } from '../../../db/list.ts';
import { summed, type DayRange, type SummaryPrefix } from '../../../db/summaries.ts';
import { betCategories, clients, mpesaPayments, refunds, tipsSubscribers } from '../../../db/schema/index.ts';
import type { Queryable } from '../../../db/client.ts';
import { sha256Hex } from '../../../lib/crypto.ts';
import { scopedWhere, type Scope } from '../../../db/scope.ts';
import { DEPOSIT_KEYS, UNCLAIMED_KEYS } from '../../../db/money.ts';

const iso = (value: unknown): string => new Date(value as string).toISOString();

interface PaymentRow {
  id: number;
  amount_cents: string | null;
  sender_name: string | null;
  /** The phone M-Pesa gave, or the matched client's or subscriber's (show what Betdesk knows, decision 016). */
  sender_phone: string | null;
  given_phone: string | null;
  msisdn: string | null;
  msisdn_kind: string;
  reference: string | null;
  at: string;
  bill_ref_number: string | null;
  status: MpesaTransaction['status'];
  client_id: number | null;
  client_name: string | null;
  subscriber_id: number | null;
  subscriber_name: string | null;
  reject_reason: string | null;
  warning: string | null;
  refunded_cents: string | number;
  /** What refunds not failed or cancelled ask back of it (the screens' rows only; the exports leave it out). */
  refund_asked_cents?: string | number;
}

/** One payment as the screens read it. The MSISDN is shown as a phone only when it is one. */
function transactionOf(r: PaymentRow): MpesaTransaction {
  return {
    id: Number(r.id),
    amount: centsToKesOrNull(r.amount_cents),
    sender_name: r.sender_name,
    sender_phone: r.sender_phone,
    sender_msisdn: r.msisdn_kind === 'masked' ? r.msisdn : null,
    transaction_reference: r.reference,
    transaction_timestamp: iso(r.at),
    account_number: r.bill_ref_number,
    status: r.status,
    client_name: r.client_name,
    client_id: r.client_id === null ? null : Number(r.client_id),
    subscriber_name: r.subscriber_name,
    subscriber_id: r.subscriber_id === null ? null : Number(r.subscriber_id),
    reject_reason: r.reject_reason,
    warning: r.warning ?? null,
    refunded_amount: centsToKes(r.refunded_cents),
    refund_asked_amount: centsToKes(r.refund_asked_cents ?? r.refunded_cents),
    unclaimed_reason:
      r.status === 'unclaimed' && r.given_phone === null && (r.msisdn_kind === 'hashed' || r.msisdn_kind === 'masked')
        ? PAYER_NUMBER_HIDDEN
        : null,
  };
}

const paymentColumns = sql`
  p.id, p.amount_cents, p.sender_name, coalesce(p.sender_phone, c.phone, s.phone) as sender_phone,
  p.sender_phone as given_phone, p.msisdn, p.msisdn_kind,
  coalesce(p.trans_id, p.raw->>'TransID') as reference, p.paid_at as at,
  p.bill_ref_number, p.status, p.client_id, c.name as client_name, p.subscriber_id, s.name as subscriber_name,
  p.reject_reason, p.warning, p.refunded_cents`;

/**
 * A screen's row also says what its refunds already ask back (waiting, sending, unknown or done), so
 * that Refund is offered only where something is left: read for the page's rows only, each by the
 * refunds' payment index, in the same statement.
 */
const rowColumns = sql`${paymentColumns},
  (select coalesce(sum(r.amount_cents), 0) from ${refunds} r
    where r.payment_id = p.id and r.status not in ('failed', 'cancelled')) as refund_asked_cents`;

/** The page's payments (`p`, already limited) with the people they went to. */
const withPeople = (page: SQL) => sql`
  from (${page}) p
  left join ${clients} c on c.id = p.client_id
  left join ${tipsSubscribers} s on s.id = p.subscriber_id`;

type PaymentSort = SortOf<'mpesaTransactions'>;
const paymentSorts: Record<PaymentSort, SQL> = { transaction_timestamp: sql`p.paid_at`, amount: sql`p.amount_cents` };

export interface PaymentFilter extends Omit<ListRequest<PaymentSort>, 'page' | 'perPage'> {
  status?: 'unclaimed';
}

/**
 * Search by sender name (contains), receipt (contains) or phone: a phone typed in any local form
 * also finds payments whose MSISDN is its hash, and payments claimed to someone with that phone.
 * The people are looked up first (`= any(array(...))`), so every branch is an index the planner can
 * OR together in one bitmap instead of scanning every payment.
 */
function searchSql(search: string | undefined): SQL {
  const text = search?.trim();
  if (!text) return sql`true`;
  const like = containing(text);
  const phone = normaliseKenyanPhone(text);
  const byPhone = phone
    ? sql` or p.sender_phone = ${phone} or p.msisdn = ${sha256Hex(phone)}
           or p.client_id = any(array(select id from ${clients} where phone = ${phone}))
           or p.subscriber_id = any(array(select id from ${tipsSubscribers} where phone = ${phone}))`
    : sql``;
  return sql`(p.sender_name ilike ${like} or p.trans_id ilike ${like}${byPhone})`;
}

function paymentsWhere(f: PaymentFilter): SQL {
  const parts: SQL[] = [searchSql(f.search), inDays(sql`p.paid_at`, dayRangeOf(f))];
  if (f.status) parts.push(sql`p.status = ${f.status}`);
  return sql.join(parts, sql` and `);
}

function paymentsPage(f: PaymentFilter, page: Page): SQL {
  const order = orderSql('mpesaTransactions', paymentSorts, sql`p.id`, f);
  return sql`select ${rowColumns} ${withPeople(pageRows(mpesaPayments, 'p', paymentsWhere(f), order, page))} order by ${order}`;
}

/** The summary keys of the payments a list shows: every payment, or the unclaimed ones. */
const paymentKeys = (f: PaymentFilter): SummaryPrefix => (f.status ? `payment:${f.status}:` : 'payment:');

export async function listPayments(
  db: Queryable,
  f: PaymentFilter & { page: number; perPage: number },
): Promise<ListCount & { transactions: MpesaTransaction[] }> {
  const count: Promise<ListCount> = f.search?.trim()
    ? cappedCount(db, sql`from ${mpesaPayments} p where ${paymentsWhere(f)}`, countCapOf(f))
    : summed(db, paymentKeys(f), dayRangeOf(f)).then((s) => ({ total_records: s.n }));
  const [found, counted] = await Promise.all([rows<PaymentRow>(db, paymentsPage(f, pageOf(f))), count]);
  return { ...counted, transactions: found.map(transactionOf) };
}

/**
 * The whole of a payments list in its order, for the CSV export's cursor: one flat join, so the
 * rows come off the sort index as they are read instead of after a sort of the whole result.
 */
export function paymentsExportQuery(f: PaymentFilter): SQL {
  return sql`select ${paymentColumns}
    from ${mpesaPayments} p
    left join ${clients} c on c.id = p.client_id
    left join ${tipsSubscribers} s on s.id = p.subscriber_id
   where ${paymentsWhere(f)}
   order by ${orderSql('mpesaTransactions', paymentSorts, sql`p.id`, f)}`;
}

export { transactionOf, depositRow };
export type { PaymentRow };

/** KES waiting unclaimed and KES received (rejected payloads are not money) over the days, from the summaries. */
export async function paymentTotals(db: Queryable, range: DayRange = {}): Promise<{ unclaimed: number; deposit: number }> {
  const [unclaimed, deposit] = await Promise.all([summed(db, UNCLAIMED_KEYS, range), summed(db, DEPOSIT_KEYS, range)]);
  return { unclaimed: centsToKes(unclaimed.amount_cents), deposit: centsToKes(deposit.amount_cents) };
}

export async function paymentById(db: Queryable, id: number): Promise<MpesaTransaction | null> {
  const [found] = await rows<PaymentRow>(
    db,
    sql`select ${rowColumns} ${withPeople(sql`select * from ${mpesaPayments} where id = ${id}`)}`,
  );
  return found ? transactionOf(found) : null;
}

/**
 * The account number as the matching rules read it (upper case, spaces and dashes dropped), written
 * exactly as the expression of `mpesa_payments_account_prefix_idx` so that the index serves it.
 */
const normalisedAccountSql = sql`upper(regexp_replace(coalesce(p.bill_ref_number, ''), '[\\s-]+', '', 'g'))`;

/**
 * The account starts with `code` (upper-cased), as the range `[code, code with its last character
 * moved one on)` in text_pattern_ops' byte order: the index's own column is compared, so counting the
 * waiting deposits is an index-only scan that never recomputes the expression (decision 045: the `like`
 * form rechecked it row by row, 22 ms for 4,000 rows at a tenth of the reference scale; 2 ms now).
 */
function accountStartsWith(code: string): SQL {
  const prefix = code.toUpperCase();
  const last = prefix.codePointAt(prefix.length - 1);
  if (last === undefined || last >= 0xd800) return sql`${normalisedAccountSql} like ${`${prefix.replace(/[\\%_]/g, (m) => `\\${m}`)}%`}`;
  const after = `${prefix.slice(0, -1)}${String.fromCodePoint(last + 1)}`;
  return sql`(${normalisedAccountSql} ~>=~ ${prefix} and ${normalisedAccountSql} ~<~ ${after})`;
}

type DepositSort = SortOf<'tipsDeposits'>;
const depositSorts: Record<DepositSort, SQL> = { transaction_timestamp: sql`p.paid_at`, amount: sql`p.amount_cents` };
export type DepositFilter = Omit<ListRequest<DepositSort>, 'page' | 'perPage'>;

/**
 * Unclaimed payments whose account number starts with a bet category code. The codes are read
 * first so that each is a constant prefix the account index can range-scan.
 */
async function namesCategorySql(db: Queryable): Promise<SQL> {
  const codes = await db.select({ code: betCategories.code }).from(betCategories);
  const names = codes.length
    ? sql.join(codes.map(({ code }) => accountStartsWith(code)), sql` or `)
    : sql`false`;
  return sql`(p.status = 'unclaimed' and p.client_id is null and p.subscriber_id is null and (${names}))`;
}

function depositRow(r: PaymentRow): TipsDeposit {
  return {
    id: Number(r.id),
    sender_phone: r.sender_phone,
    sender_name: r.sender_name,
    amount: centsToKesOrNull(r.amount_cents),
    transaction_reference: r.reference,
    transaction_timestamp: iso(r.at),
    status: r.status,
    refunded_amount: centsToKes(r.refunded_cents),
    refund_asked_amount: centsToKes(r.refund_asked_cents ?? r.refunded_cents),
  };
}

const depositsWhere = (f: DepositFilter, waiting: SQL) => sql`(p.subscriber_id is not null and p.status = 'claimed' or ${waiting})
    and ${searchSql(f.search)} and ${inDays(sql`p.paid_at`, dayRangeOf(f))}`;

function depositsPage(f: DepositFilter, waiting: SQL, page: Page): SQL {
  const order = orderSql('tipsDeposits', depositSorts, sql`p.id`, f);
  return sql`select ${rowColumns} ${withPeople(pageRows(mpesaPayments, 'p', depositsWhere(f, waiting), order, page))} order by ${order}`;
}

/**
 * Tips deposits: payments claimed to a tips subscriber, and unclaimed ones whose account number
 * names a bet category. Counted from the summaries plus the (small) unclaimed set, or capped when searched.
 */
export async function listTipsDeposits(
  db: Queryable,
  f: DepositFilter & { page: number; perPage: number },
): Promise<ListCount & { deposits: TipsDeposit[] }> {
  const waiting = await namesCategorySql(db);
  const range = dayRangeOf(f);
  const count: Promise<ListCount> = f.search?.trim()
    ? cappedCount(db, sql`from ${mpesaPayments} p where ${depositsWhere(f, waiting)}`, countCapOf(f))
    : Promise.all([
        summed(db, 'payment:claimed:subscriber:', range),
        exactCount(db, sql`from ${mpesaPayments} p where ${waiting} and ${inDays(sql`p.paid_at`, range)}`),
      ]).then(([claimed, unclaimed]) => ({ total_records: claimed.n + unclaimed }));
  const [found, counted] = await Promise.all([rows<PaymentRow>(db, depositsPage(f, waiting, pageOf(f))), count]);
  return { ...counted, deposits: found.map(depositRow) };
}

/** The whole of the tips deposits list in its order, for the CSV export's cursor. */
export async function tipsDepositsExportQuery(db: Queryable, f: DepositFilter): Promise<SQL> {
  const waiting = await namesCategorySql(db);
  return sql`select ${paymentColumns}
    from ${mpesaPayments} p
    left join ${clients} c on c.id = p.client_id
    left join ${tipsSubscribers} s on s.id = p.subscriber_id
   where ${depositsWhere(f, waiting)}
   order by ${orderSql('tipsDeposits', depositSorts, sql`p.id`, f)}`;
}

// --- The dashboard's newest payments ---

export interface RecentPaymentRow {
  name: string;
  phone: string | null;
  masked_msisdn: string | null;
  reference: string;
  time: string;
  amount_cents: string;
}

/**
 * The newest payments with who paid, read newest first off mpesa_payments_paid_idx; a staff
 * member's scope reads mpesa_payments_owner_paid_idx (their clients' claimed payments).
 */
export async function recentPaymentRows(db: Queryable, options: { limit: number; scope: Scope }): Promise<RecentPaymentRow[]> {
  const mine = scopedWhere(options.scope, 'p');
  return rows<RecentPaymentRow>(
    db,
    sql`select coalesce(c.name, s.name, p.sender_name, 'Unknown sender') as name,
               coalesce(c.phone, s.phone, p.sender_phone) as phone,
               case when p.msisdn_kind = 'masked' then p.msisdn end as masked_msisdn,
               coalesce(p.trans_id, '') as reference, p.paid_at as time, coalesce(p.amount_cents, 0) as amount_cents
          from (select * from ${mpesaPayments} p where p.status <> 'rejected' and ${mine}
                 order by p.paid_at desc, p.id desc limit ${options.limit}) p
          left join ${clients} c on c.id = p.client_id
          left join ${tipsSubscribers} s on s.id = p.subscriber_id
         order by p.paid_at desc, p.id desc`,
  );
}
