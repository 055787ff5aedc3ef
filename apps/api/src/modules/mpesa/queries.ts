import { and, asc, desc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import {
  centsToKes,
  centsToKesOrNull,
  normaliseKenyanPhone,
  PAYER_NUMBER_HIDDEN,
  type ClaimCandidate,
  type PaymentRequest,
  type MpesaTransaction,
  type SortOf,
  type TipsDeposit,
} from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { asPlaceholders, type FixedStatement } from '../../db/fixed-statements.ts';
import { cappedCount, containing, dayRangeOf, exactCount, inDays, orderSql, pageOf, pageRows, type ListCount, type Page, type ListRequest } from '../../db/list.ts';
import { summed, type DayRange, type SummaryPrefix } from '../../db/summaries.ts';
import { bet4mePlans, betCategories, clients, mpesaPayments, pricePackages, refunds, stkRequests, subscriptions, tipsSubscribers, type SaleBlock, type TipsMedium } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { scopedWhere, type Scope } from '../../db/scope.ts';
import { releaseUsesOfRequest } from '../promo-codes/service.ts';
import { DEPOSIT_KEYS, UNCLAIMED_KEYS } from '../../db/money.ts';

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
    ? cappedCount(db, sql`from ${mpesaPayments} p where ${paymentsWhere(f)}`)
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
    ? cappedCount(db, sql`from ${mpesaPayments} p where ${depositsWhere(f, waiting)}`)
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

/**
 * People a payment may be claimed to. With a search: clients and subscribers by name or phone, or
 * the payee of another payment with that receipt. Without one: suggestions from the payment's
 * masked MSISDN (same visible digits) and sender name, never claimed automatically.
 */
export async function claimCandidatesFor(
  db: Queryable,
  payment: { msisdn: string | null; msisdnKind: string; senderName: string | null },
  search: string,
): Promise<ClaimCandidate[]> {
  let clientWhere: SQL;
  let subscriberWhere: SQL;
  let clientWhy: SQL;
  let subscriberWhy: SQL;
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const phone = normaliseKenyanPhone(search) ?? '';
    const paidBy = (column: SQL) => sql`select ${column} from ${mpesaPayments} where upper(trans_id) = upper(${search})`;
    clientWhere = sql`(name ilike ${like} or phone = ${phone} or id in (${paidBy(sql`client_id`)}))`;
    subscriberWhere = sql`(name ilike ${like} or phone = ${phone} or id in (${paidBy(sql`subscriber_id`)}))`;
    clientWhy = sql`null`;
    subscriberWhy = sql`null`;
  } else {
    const masked = payment.msisdnKind === 'masked' ? maskedPattern(payment.msisdn) : null;
    // Every name M-Pesa gave must appear: "JOHN KAMAU" suggests John Kamau, not every John.
    const names = (payment.senderName ?? '')
      .split(/\s+/)
      .filter((n) => n.length >= 3)
      .slice(0, 3)
      .map((n) => `%${n.replace(/[\\%_]/g, '')}%`);
    const nameFits = names.length > 0 ? sql.join(names.map((n) => sql`name ilike ${n}`), sql` and `) : sql`false`;
    const maskFits = masked ? sql`phone like ${masked}` : sql`false`;
    const why = sql`case when ${maskFits} then 'Phone fits the masked number' else 'Same name as the sender' end`;
    const suggests = sql`(${maskFits} or (${nameFits}))`;
    clientWhere = suggests;
    subscriberWhere = suggests;
    clientWhy = why;
    subscriberWhy = why;
  }
  const found = await rows<{ kind: 'client' | 'subscriber'; id: number; name: string; phone: string; suggested: string | null }>(
    db,
    sql`(select 'client' as kind, id, name, phone, ${clientWhy} as suggested
           from ${clients} where deleted_at is null and ${clientWhere} order by name limit 20)
        union all
        (select 'subscriber' as kind, id, name, phone, ${subscriberWhy} as suggested
           from ${tipsSubscribers} where ${subscriberWhere} order by name limit 20)`,
  );
  return found.map((r) => ({ ...r, id: Number(r.id) }));
}

/** "2547 ***** 126" -> "2547%126": the digits M-Pesa left visible, in place. */
export function maskedPattern(msisdn: string | null): string | null {
  if (!msisdn) return null;
  const m = /^([\d\s]*)\*+([\d\s]*)$/.exec(msisdn.replace(/\s*\*[\s*]*/g, '*'));
  if (!m) return null;
  const head = m[1]!.replace(/\s/g, '');
  const tail = m[2]!.replace(/\s/g, '');
  if (head.length + tail.length < 5) return null;
  return `${head}%${tail}`;
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

// --- Payments as stored rows (arrivals, claims, refunds) ---

/** Whose account a payment goes to (matching.ts's Payee, which builds on these statements). */
type Payee = { clientId: number } | { subscriberId: number };

export type PaymentRecord = typeof mpesaPayments.$inferSelect;

export async function paymentRecord(db: Queryable, id: number): Promise<PaymentRecord | undefined> {
  const [payment] = await db.select().from(mpesaPayments).where(eq(mpesaPayments.id, id));
  return payment;
}

/** The payment, locked until the transaction ends (claims and refunds of it queue behind). */
export async function lockPayment(tx: Queryable, id: number): Promise<PaymentRecord | undefined> {
  const [payment] = await tx.select().from(mpesaPayments).where(eq(mpesaPayments.id, id)).for('update');
  return payment;
}

/**
 * The insert of `insertPaymentOnce` as a part of a bigger statement (it returns the new row's id),
 * its text built once per shape of the row.
 */
export function paymentInsertOnce(tx: Queryable, row: PgInsertValue<typeof mpesaPayments>): FixedStatement {
  const p = asPlaceholders(row, 'payment_');
  return {
    shape: `payment once (${p.shape})`,
    values: p.values,
    build: () =>
      tx
        .insert(mpesaPayments)
        .values(p.row)
        .onConflictDoNothing({ target: mpesaPayments.transId })
        .returning({ id: mpesaPayments.id }),
  };
}

/** Stores a payment once per receipt: null when its TransID is stored already (a repeat). */
export async function insertPaymentOnce(tx: Queryable, row: PgInsertValue<typeof mpesaPayments>): Promise<{ id: number } | null> {
  const [stored] = await tx
    .insert(mpesaPayments)
    .values(row)
    .onConflictDoNothing({ target: mpesaPayments.transId })
    .returning({ id: mpesaPayments.id });
  return stored ?? null;
}

/** The payment of a receipt, locked. */
export async function lockPaymentByReceipt(tx: Queryable, receipt: string) {
  const [existing] = await tx
    .select({ id: mpesaPayments.id, status: mpesaPayments.status, amountCents: mpesaPayments.amountCents })
    .from(mpesaPayments)
    .where(eq(mpesaPayments.transId, receipt))
    .for('update');
  return existing;
}

/** The payment row's columns that say it is claimed, and by whom. */
export function claimedColumns(s: { payee: Payee; matchedBy: NonNullable<PaymentRecord['matchedBy']>; actorUserId: number | null }) {
  return {
    status: 'claimed' as const,
    clientId: 'clientId' in s.payee ? s.payee.clientId : null,
    subscriberId: 'subscriberId' in s.payee ? s.payee.subscriberId : null,
    matchedBy: s.matchedBy,
    claimedBy: s.actorUserId,
    claimedAt: sql`now()`,
  };
}

/** Marks a stored payment claimed by the rules (or an STK request), at the database's time. */
export async function markClaimed(tx: Queryable, paymentId: number, s: Parameters<typeof claimedColumns>[0]) {
  await tx.update(mpesaPayments).set(claimedColumns(s)).where(eq(mpesaPayments.id, paymentId));
}

/** Marks a payment claimed by a staff member (at the server's time). */
export async function markClaimedByHand(tx: Queryable, paymentId: number, payee: Payee, claimedBy: number | null) {
  await tx
    .update(mpesaPayments)
    .set({
      status: 'claimed',
      clientId: 'clientId' in payee ? payee.clientId : null,
      subscriberId: 'subscriberId' in payee ? payee.subscriberId : null,
      matchedBy: 'manual',
      claimedBy,
      claimedAt: new Date(),
    })
    .where(eq(mpesaPayments.id, paymentId));
}

export async function markUnclaimed(tx: Queryable, paymentId: number) {
  await tx
    .update(mpesaPayments)
    .set({ status: 'unclaimed', clientId: null, subscriberId: null, matchedBy: null, claimedBy: null, claimedAt: null })
    .where(eq(mpesaPayments.id, paymentId));
}

/** The warning a payment carries for the person who looks at it. */
export async function setPaymentWarning(tx: Queryable, paymentId: number, warning: string | null) {
  await tx.update(mpesaPayments).set({ warning }).where(eq(mpesaPayments.id, paymentId));
}

/**
 * A C2B confirmation's first look-ups, in one read: a receipt-less STK payment (confirmed only by an
 * STK query) from the phone of this hash, of this amount, in the last two days (the oldest, locked),
 * when `waiting` says what to look for; and the bet category whose code the account starts with
 * (the longest such code; none for an empty account).
 */
/** Named columns as one JSON object. */
const jsonObjectOf = (columns: Record<string, SQL>) =>
  sql`json_build_object(${sql.join(Object.entries(columns).map(([name, column]) => sql`${name}::text, ${column}`), sql`, `)})`;

export async function receiptlessStkPaymentAndCategory(
  tx: Queryable,
  waiting: { phoneHash: string; amountCents: number } | null,
  account: string,
  /** The sender's phone hash: the subscribers with it are read too (two at most: one decides, two do not). */
  senderHash: string | null,
  /**
   * Columns read for each of those subscribers, answered by name in `also`: given the subscriber
   * (`s.id`) and the category the account names (null when none).
   */
  perSender?: (subscriberId: SQL, namedCategoryId: SQL) => Record<string, SQL>,
  /** SQL true when the payer is an erased person (read with the rest, for a payment nobody matches). */
  payerErased?: SQL,
  /** SQL text: why no sale may be made to the payer (self-excluded, under 18), null when one may (src/db/sale-blocks.ts). */
  payerBlocked?: SQL,
  /** SQL true when the sender must first declare they are 18 or older (decision 066). */
  payerUndeclared?: SQL,
): Promise<{
  waitingId: number | null;
  category: { id: number; code: string } | null;
  subscribersOfSender: { id: number; name: string; phone: string; also: unknown }[] | undefined;
  /** The one live client with the sender's phone (null: none or two); undefined without a sender's hash. */
  clientOfSender: number | null | undefined;
  /** Whether `payerErased` held; undefined when it was not given. */
  payerErased: boolean | undefined;
  /** What `payerBlocked` answered. */
  payerBlocked: SaleBlock | null;
  /** Whether `payerUndeclared` held (false when it was not given). */
  payerUndeclared: boolean;
}> {
  const stk = waiting
    ? sql`(select id from ${mpesaPayments}
            where trans_id is null and source = 'stk' and amount_cents = ${waiting.amountCents}
              and sender_phone is not null and encode(sha256(convert_to(sender_phone, 'UTF8')), 'hex') = ${waiting.phoneHash}
              and received_at > now() - interval '2 days'
            order by received_at limit 1
              for update)`
    : sql`null::bigint`;
  const ofSender = senderHash
    ? sql`(select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name, 'phone', s.phone, 'also', ${perSender ? jsonObjectOf(perSender(sql`s.id`, sql`c.id`)) : sql`null`})), '[]'::json)
             from (select id, name, phone from ${tipsSubscribers} where phone_hash = ${senderHash} limit 2) s)`
    : sql`null::json`;
  const clientsOfSender = senderHash
    ? sql`(select coalesce(json_agg(k.id), '[]'::json)
             from (select id from ${clients} where phone_hash = ${senderHash} and deleted_at is null limit 2) k)`
    : sql`null::json`;
  const [found] = await rows<{
    waiting_id: string | number | null;
    id: number | null;
    code: string | null;
    of_sender: unknown;
    clients_of_sender: unknown;
    payer_erased: boolean | null;
    payer_blocked: SaleBlock | null;
    payer_undeclared: boolean | null;
  }>(
    tx,
    sql`select ${stk} as waiting_id, c.id, c.code, ${ofSender} as of_sender, ${clientsOfSender} as clients_of_sender,
               ${payerErased ?? sql`null::boolean`} as payer_erased, ${payerBlocked ?? sql`null::text`} as payer_blocked,
               ${payerUndeclared ?? sql`null::boolean`} as payer_undeclared
          from (select 1) one
          left join lateral (select id, code from ${betCategories}
                              where ${account} <> '' and ${account} like upper(code) || '%'
                              order by length(code) desc limit 1) c on true`,
  );
  return {
    waitingId: found?.waiting_id != null ? Number(found.waiting_id) : null,
    category: found?.id != null ? { id: Number(found.id), code: found.code! } : null,
    subscribersOfSender:
      senderHash && found
        ? ((typeof found.of_sender === 'string' ? JSON.parse(found.of_sender) : found.of_sender) as { id: number; name: string; phone: string; also: unknown }[]).map(
            (s) => ({ id: Number(s.id), name: s.name, phone: s.phone, also: s.also }),
          )
        : undefined,
    clientOfSender: senderHash && found ? onlyIdOf(found.clients_of_sender) : undefined,
    payerErased: payerErased && found ? found.payer_erased === true : undefined,
    payerBlocked: found?.payer_blocked ?? null,
    payerUndeclared: found?.payer_undeclared === true,
  };
}

/** The id of a JSON list of at most two ids when it holds exactly one (two people sharing a number decide nothing). */
function onlyIdOf(list: unknown): number | null {
  const ids = (typeof list === 'string' ? JSON.parse(list) : list) as (number | string)[];
  return ids.length === 1 ? Number(ids[0]) : null;
}

/** Gives a receipt-less payment its receipt; null when it has one already. */
export async function setReceiptIfNone(tx: Queryable, paymentId: number, transId: string): Promise<number | null> {
  const adopted = await tx
    .update(mpesaPayments)
    .set({ transId })
    .where(and(eq(mpesaPayments.id, paymentId), isNull(mpesaPayments.transId)))
    .returning({ id: mpesaPayments.id });
  return adopted[0]?.id ?? null;
}

/** The callback's receipt on a payment an STK query confirmed, unless that receipt is stored already. */
export async function attachCallbackReceipt(tx: Queryable, paymentId: number, receipt: string, raw: object) {
  await tx
    .update(mpesaPayments)
    .set({ transId: receipt, raw })
    .where(
      and(
        eq(mpesaPayments.id, paymentId),
        isNull(mpesaPayments.transId),
        sql`not exists (select 1 from ${mpesaPayments} other where other.trans_id = ${receipt})`,
      ),
    );
}

/** What a refund M-Pesa confirmed returned of the payment. */
export async function addRefundedCents(tx: Queryable, paymentId: number, cents: number) {
  await tx
    .update(mpesaPayments)
    .set({ refundedCents: sql`${mpesaPayments.refundedCents} + ${cents}` })
    .where(eq(mpesaPayments.id, paymentId));
}

/** Whether the payment has a refund asked, on its way or done (not failed or cancelled). */
export async function hasLiveRefund(tx: Queryable, paymentId: number): Promise<boolean> {
  const [found] = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(sql`${refunds.paymentId} = ${paymentId} and ${refunds.status} not in ('failed', 'cancelled')`)
    .limit(1);
  return found !== undefined;
}

// --- Who paid: the matching rules' look-ups ---

/** The bet category whose code the account starts with (the longest such code). */
export async function categoryCodeStartingAccount(db: Queryable, account: string): Promise<{ id: number; code: string } | null> {
  const [found] = await db
    .select({ id: betCategories.id, code: betCategories.code })
    .from(betCategories)
    .where(sql`${account} like upper(${betCategories.code}) || '%'`)
    .orderBy(sql`length(${betCategories.code}) desc`)
    .limit(1);
  return found ?? null;
}

/** The one subscriber with this phone (or phone hash), with their name and phone (the receipt's); null when none or two. */
export async function onlySubscriberWith(
  db: Queryable,
  by: { phone?: string; phoneHash?: string },
): Promise<{ id: number; name: string; phone: string } | null> {
  const where = by.phone ? eq(tipsSubscribers.phone, by.phone) : eq(tipsSubscribers.phoneHash, by.phoneHash!);
  const found = await db.select({ id: tipsSubscribers.id, name: tipsSubscribers.name, phone: tipsSubscribers.phone }).from(tipsSubscribers).where(where).limit(2);
  return found.length === 1 ? found[0]! : null;
}

/** The one live client with this id, phone (or phone hash); null when none or two. */
export async function onlyLiveClientWith(db: Queryable, by: { id?: number; phone?: string; phoneHash?: string }): Promise<number | null> {
  const where =
    by.id !== undefined
      ? eq(clients.id, by.id)
      : by.phone
        ? eq(clients.phone, by.phone)
        : eq(clients.phoneHash, by.phoneHash!);
  const found = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(where, isNull(clients.deletedAt)))
    .limit(2);
  return found.length === 1 ? found[0]!.id : null;
}

/** Whether a client of this id exists, trashed or not. */
export async function clientExists(db: Queryable, clientId: number): Promise<boolean> {
  const [found] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).limit(1);
  return found !== undefined;
}

export async function liveClientExists(db: Queryable, clientId: number): Promise<boolean> {
  const [found] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, clientId), isNull(clients.deletedAt)));
  return found !== undefined;
}

export async function subscriberExists(db: Queryable, subscriberId: number): Promise<boolean> {
  const [found] = await db.select({ id: tipsSubscribers.id }).from(tipsSubscribers).where(eq(tipsSubscribers.id, subscriberId));
  return found !== undefined;
}

export async function clientNameAndPhone(db: Queryable, clientId: number) {
  const [c] = await db.select({ name: clients.name, phone: clients.phone }).from(clients).where(eq(clients.id, clientId));
  return c;
}

export async function subscriberNameAndPhone(db: Queryable, subscriberId: number) {
  const [s] = await db
    .select({ name: tipsSubscribers.name, phone: tipsSubscribers.phone })
    .from(tipsSubscribers)
    .where(eq(tipsSubscribers.id, subscriberId));
  return s;
}

/** The M-Pesa receipt of a payment (null before it has one). */
export async function receiptOf(db: Queryable, paymentId: number): Promise<string | null | undefined> {
  const [payment] = await db.select({ transId: mpesaPayments.transId }).from(mpesaPayments).where(eq(mpesaPayments.id, paymentId));
  return payment?.transId;
}

// --- What a payment buys (the settlement rules' look-ups) ---

export async function planById(tx: Queryable, planId: number) {
  const [plan] = await tx.select().from(bet4mePlans).where(eq(bet4mePlans.id, planId));
  return plan;
}

/** The shortest active Bet4Me plan costing exactly this. */
export async function activePlanPriced(tx: Queryable, priceCents: number) {
  const [plan] = await tx
    .select()
    .from(bet4mePlans)
    .where(and(eq(bet4mePlans.active, true), eq(bet4mePlans.priceCents, priceCents)))
    .orderBy(bet4mePlans.durationDays)
    .limit(1);
  return plan;
}

export async function packageById(tx: Queryable, packageId: number) {
  const [pkg] = await tx.select().from(pricePackages).where(eq(pricePackages.id, packageId));
  return pkg;
}

/** What a tips payment may buy, read in one go (`saleLookupColumn`, `readSaleLookup`). */
export interface SaleLookup {
  /** The subscriber's latest tips subscription (its category and medium); null when they never subscribed. */
  latest: { betCategoryId: number; medium: TipsMedium | null } | null;
  /** The packages costing exactly the amount, in the category named, else in the latest one. */
  fits: (typeof pricePackages.$inferSelect)[];
  /** The columns read with them, by name. */
  also: Record<string, unknown>;
}

/**
 * The tips settlement's look-ups as one JSON column (`readSaleLookup` reads it): the subscriber's
 * latest tips subscription (its category and medium) and the packages costing exactly this in the
 * category the account named, else in that latest category. `also`: columns read with them (the
 * receipt's settings, today's tip of the category), answered by name; a column given as a function
 * gets the category the packages are of (an SQL expression). A column of its own so that the C2B
 * confirmation's first read can carry it for the sender's subscriber (one round trip fewer).
 */
export function saleLookupColumn(
  subscriberId: SQL,
  namedCategoryId: SQL,
  priceCents: number,
  also: Record<string, SQL | ((category: SQL) => SQL)> = {},
): SQL {
  const category = sql`coalesce(${namedCategoryId}, latest.bet_category_id)`;
  const alsoColumns = Object.fromEntries(Object.entries(also).map(([name, column]) => [name, typeof column === 'function' ? column(category) : column]));
  const alsoObject = Object.keys(alsoColumns).length > 0 ? jsonObjectOf(alsoColumns) : sql`null::json`;
  return sql`(select json_build_object(
            'latest_category_id', latest.bet_category_id, 'latest_medium', latest.medium,
            'fits', (select coalesce(json_agg(json_build_object('id', p.id, 'bet_category_id', p.bet_category_id, 'medium', p.medium, 'name', p.name,
                                                                'duration_days', p.duration_days, 'price_cents', p.price_cents, 'updated_at', p.updated_at)
                                              order by p.id), '[]'::json)
                       from ${pricePackages} p where p.bet_category_id = ${category} and p.price_cents = ${priceCents}::bigint),
            'also', ${alsoObject})
          from (select 1) one
          left join lateral (select bet_category_id, medium from ${subscriptions}
                              where subscriber_id = ${subscriberId} and bet_category_id is not null
                              order by created_at desc, id desc limit 1) latest on true)`;
}

/** The value of a `saleLookupColumn`. */
export function readSaleLookup(value: unknown): SaleLookup {
  const read = (typeof value === 'string' ? JSON.parse(value) : value) as {
    latest_category_id: number | null;
    latest_medium: TipsMedium | null;
    fits: { id: number; bet_category_id: number; medium: TipsMedium; name: string; duration_days: number; price_cents: number | string; updated_at: string }[];
    also: Record<string, unknown> | null;
  };
  return {
    latest: read.latest_category_id != null ? { betCategoryId: Number(read.latest_category_id), medium: read.latest_medium } : null,
    fits: read.fits.map((p) => ({
      id: Number(p.id),
      betCategoryId: Number(p.bet_category_id),
      medium: p.medium,
      name: p.name,
      durationDays: Number(p.duration_days),
      priceCents: Number(p.price_cents),
      updatedAt: new Date(p.updated_at),
    })),
    also: read.also ?? {},
  };
}

/** `saleLookupColumn` for one subscriber, read on its own. */
export async function latestSubscriptionAndPackagesPriced(
  tx: Queryable,
  subscriberId: number,
  namedCategoryId: number | null,
  priceCents: number,
  also: Record<string, SQL | ((category: SQL) => SQL)> = {},
): Promise<SaleLookup> {
  const [found] = await rows<{ sale: unknown }>(
    tx,
    sql`select ${saleLookupColumn(sql`${subscriberId}::integer`, sql`${namedCategoryId}::integer`, priceCents, also)} as sale`,
  );
  return readSaleLookup(found!.sale);
}

/** What a subscription bought: its amount, days, and the plan or package. */
export async function subscriptionBought(tx: Queryable, subscriptionId: number) {
  const [bought] = await tx
    .select({ amountCents: subscriptions.amountCents, durationDays: subscriptions.durationDays, plan: bet4mePlans.name, pkg: pricePackages.name })
    .from(subscriptions)
    .leftJoin(bet4mePlans, eq(bet4mePlans.id, subscriptions.planId))
    .leftJoin(pricePackages, eq(pricePackages.id, subscriptions.packageId))
    .where(eq(subscriptions.id, subscriptionId));
  return bought;
}

export async function categoryById(db: Queryable, betCategoryId: number) {
  const [category] = await db.select().from(betCategories).where(eq(betCategories.id, betCategoryId));
  return category;
}

/** A category's priced packages as the prices SMS lists them (at most ten). */
export async function pricesOfCategory(db: Queryable, betCategoryId: number) {
  return db
    .select({ medium: pricePackages.medium, days: pricePackages.durationDays, priceCents: pricePackages.priceCents })
    .from(pricePackages)
    .where(and(eq(pricePackages.betCategoryId, betCategoryId), gt(pricePackages.priceCents, 0)))
    .orderBy(asc(pricePackages.medium), asc(pricePackages.durationDays))
    .limit(10);
}

// --- Payment requests (STK pushes) ---

export type StkRequestRow = typeof stkRequests.$inferSelect;

/** The tips packages for sale, with their category, by category name, medium and days. */
export async function packagesForSale(db: Queryable) {
  return db
    .select({
      id: pricePackages.id,
      name: pricePackages.name,
      medium: pricePackages.medium,
      durationDays: pricePackages.durationDays,
      priceCents: pricePackages.priceCents,
      category: betCategories.name,
      code: betCategories.code,
    })
    .from(pricePackages)
    .innerJoin(betCategories, eq(betCategories.id, pricePackages.betCategoryId))
    .where(sql`${pricePackages.priceCents} > 0`)
    .orderBy(asc(betCategories.name), asc(pricePackages.medium), asc(pricePackages.durationDays));
}

/** The active Bet4Me plans for sale, shortest first. */
export async function plansForSale(db: Queryable) {
  return db
    .select()
    .from(bet4mePlans)
    .where(and(eq(bet4mePlans.active, true), sql`${bet4mePlans.priceCents} > 0`))
    .orderBy(asc(bet4mePlans.durationDays));
}

/** The category's cheapest SMS package for sale (the shortest of equal prices). */
export async function cheapestSmsPackage(db: Queryable, betCategoryId: number): Promise<number | null> {
  const [cheapest] = await db
    .select({ id: pricePackages.id })
    .from(pricePackages)
    .where(and(eq(pricePackages.betCategoryId, betCategoryId), eq(pricePackages.medium, 'sms'), sql`${pricePackages.priceCents} > 0`))
    .orderBy(asc(pricePackages.priceCents), asc(pricePackages.durationDays))
    .limit(1);
  return cheapest?.id ?? null;
}

export interface PaymentRequestRow {
  id: number;
  phone: string;
  amount_cents: string;
  item: string | null;
  status: PaymentRequest['status'];
  result_desc: string | null;
  receipt: string | null;
  requested_at: string;
}

/** Payment requests (one, or a payer's newest) with what they asked for and the receipt they were paid with. */
export async function paymentRequestRows(
  db: Queryable,
  of: { id: number } | { clientId: number } | { subscriberId: number },
  limit: number,
): Promise<PaymentRequestRow[]> {
  const where = 'id' in of ? sql`r.id = ${of.id}` : 'clientId' in of ? sql`r.client_id = ${of.clientId}` : sql`r.subscriber_id = ${of.subscriberId}`;
  return rows<PaymentRequestRow>(db, sql`
    select r.id, r.phone, r.amount_cents, r.status, r.result_desc, r.requested_at, p.trans_id as receipt,
           case r.purpose when 'bonus' then 'Pending bonus'
                          when 'plan' then pl.name || ' plan'
                          else pp.name end as item
      from ${stkRequests} r
      left join ${mpesaPayments} p on p.id = r.payment_id
      left join ${bet4mePlans} pl on pl.id = r.plan_id
      left join ${pricePackages} pp on pp.id = r.package_id
     where ${where}
     order by r.requested_at desc, r.id desc
     limit ${limit}`);
}

export async function insertPaymentRequest(tx: Queryable, request: PgInsertValue<typeof stkRequests>): Promise<number> {
  const inserted = await tx.insert(stkRequests).values(request).returning({ id: stkRequests.id });
  return inserted[0]!.id;
}

/** Daraja took the push: its ids, which the callback and the STK query name. */
export async function markRequestSent(db: Queryable, id: number, ids: { merchantRequestId: string; checkoutRequestId: string }) {
  await db.update(stkRequests).set(ids).where(eq(stkRequests.id, id));
}

/** Daraja refused the push (or could not be reached): the request failed now. */
export async function markRequestRefused(db: Queryable, id: number, reason: string) {
  await db
    .update(stkRequests)
    .set({ status: 'failed', resultDesc: reason, settledAt: sql`now()` })
    .where(eq(stkRequests.id, id));
  await releaseUsesOfRequest(db, id);
}

/** The client a request was sent for (null for a tips subscriber); undefined when no such request. */
export async function clientOfRequest(db: Queryable, id: number) {
  const [found] = await db.select({ clientId: stkRequests.clientId }).from(stkRequests).where(eq(stkRequests.id, id));
  return found;
}

/** Pending requests sent (and last asked about) before the cutoff, newest first, at most `limit`. */
export async function requestsToRecheck(db: Queryable, cutoff: Date, limit: number) {
  return db
    .select({ id: stkRequests.id, checkoutRequestId: stkRequests.checkoutRequestId })
    .from(stkRequests)
    .where(
      and(
        eq(stkRequests.status, 'pending'),
        lte(stkRequests.requestedAt, cutoff),
        or(sql`${stkRequests.queriedAt} is null`, lte(stkRequests.queriedAt, cutoff)),
      ),
    )
    .orderBy(desc(stkRequests.requestedAt))
    .limit(limit);
}

export async function lockRequest(tx: Queryable, id: number): Promise<StkRequestRow | undefined> {
  const [request] = await tx.select().from(stkRequests).where(eq(stkRequests.id, id)).for('update');
  return request;
}

export async function lockRequestByCheckout(tx: Queryable, checkoutRequestId: string): Promise<StkRequestRow | undefined> {
  const [request] = await tx.select().from(stkRequests).where(eq(stkRequests.checkoutRequestId, checkoutRequestId)).for('update');
  return request;
}

/**
 * Writes what was learnt of a request (its end, or an STK query asked); `settledNow` and
 * `queriedNow` stamp settled_at and queried_at with the database's time.
 */
export async function recordRequestAnswer(
  tx: Queryable,
  id: number,
  answer: Omit<Partial<typeof stkRequests.$inferInsert>, 'settledAt' | 'queriedAt'>,
  stamp: { settledNow?: boolean; queriedNow?: boolean },
) {
  await tx
    .update(stkRequests)
    .set({
      ...(stamp.queriedNow ? { queriedAt: sql`now()` } : {}),
      ...answer,
      ...(stamp.settledNow ? { settledAt: sql`now()` } : {}),
    })
    .where(eq(stkRequests.id, id));
  // A push that ended unpaid gives back the promo code use it held (decision 077).
  if (answer.status === 'failed' || answer.status === 'cancelled') await releaseUsesOfRequest(tx, id);
}
