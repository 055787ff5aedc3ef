import { sql, type SQL } from 'drizzle-orm';
import { normaliseKenyanPhone, PAYER_NUMBER_HIDDEN, type ClaimCandidate, type MpesaTransaction, type TipsDeposit } from '@betdesk/contract';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { betCategories, clients, mpesaPayments, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';

const kes = (cents: unknown): number | null => (cents == null ? null : Number(cents) / 100);
const iso = (value: unknown): string => new Date(value as string).toISOString();

interface PaymentRow {
  id: number;
  amount_cents: string | null;
  sender_name: string | null;
  sender_phone: string | null;
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
  total_records?: string;
}

/** One payment as the screens read it. The MSISDN is shown as a phone only when it is one. */
function transactionOf(r: PaymentRow): MpesaTransaction {
  return {
    id: Number(r.id),
    amount: kes(r.amount_cents),
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
    unclaimed_reason:
      r.status === 'unclaimed' && r.sender_phone === null && (r.msisdn_kind === 'hashed' || r.msisdn_kind === 'masked')
        ? PAYER_NUMBER_HIDDEN
        : null,
  };
}

const paymentColumns = sql`
  p.id, p.amount_cents, p.sender_name, p.sender_phone, p.msisdn, p.msisdn_kind,
  coalesce(p.trans_id, p.raw->>'TransID') as reference,
  coalesce(p.trans_time, p.received_at) as at,
  p.bill_ref_number, p.status, p.client_id, c.name as client_name, p.subscriber_id, s.name as subscriber_name,
  p.reject_reason, count(*) over() as total_records`;

const paymentJoins = sql`
  from ${mpesaPayments} p
  left join ${clients} c on c.id = p.client_id
  left join ${tipsSubscribers} s on s.id = p.subscriber_id`;

export interface PaymentFilter {
  status?: 'unclaimed';
  search?: string;
}

/**
 * Search by sender name (contains), receipt (contains) or phone: a phone typed in any local form
 * also finds payments whose MSISDN is its hash, and payments claimed to someone with that phone.
 */
function filterSql(f: PaymentFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.status) parts.push(sql`p.status = ${f.status}`);
  const search = f.search?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const phone = normaliseKenyanPhone(search);
    const byPhone = phone
      ? sql` or p.sender_phone = ${phone} or p.msisdn = ${sha256Hex(phone)} or c.phone = ${phone} or s.phone = ${phone}`
      : sql``;
    parts.push(sql`(p.sender_name ilike ${like} or p.trans_id ilike ${like}${byPhone})`);
  }
  return sql.join(parts, sql` and `);
}

export async function listPayments(
  db: Queryable,
  f: PaymentFilter & { page: number; perPage: number },
): Promise<{ total: number; transactions: MpesaTransaction[] }> {
  const offset = (f.page - 1) * f.perPage;
  const { found, total } = await pageWithTotal<PaymentRow>(
    db,
    {
      query: sql`
        select ${paymentColumns} ${paymentJoins}
         where ${filterSql(f)}
         order by p.received_at desc, p.id desc
         limit ${f.perPage} offset ${offset}`,
      offset,
    },
    sql`select count(*) as total ${paymentJoins} where ${filterSql(f)}`,
  );
  return { total, transactions: found.map(transactionOf) };
}

/** KES waiting unclaimed and KES received (rejected payloads are not money). */
export async function paymentTotals(db: Queryable): Promise<{ unclaimed: number; deposit: number }> {
  const [row] = await rows<{ unclaimed: string; deposit: string }>(db, sql`
    select coalesce(sum(amount_cents) filter (where status = 'unclaimed'), 0) as unclaimed,
           coalesce(sum(amount_cents) filter (where status <> 'rejected'), 0) as deposit
      from ${mpesaPayments}`);
  return { unclaimed: kes(row?.unclaimed) ?? 0, deposit: kes(row?.deposit) ?? 0 };
}

export async function paymentById(db: Queryable, id: number): Promise<MpesaTransaction | null> {
  const [found] = await rows<PaymentRow>(db, sql`select ${paymentColumns} ${paymentJoins} where p.id = ${id}`);
  return found ? transactionOf(found) : null;
}

/**
 * The account number as the matching rules read it (upper case, spaces and dashes dropped), written
 * exactly as the expression of `mpesa_payments_account_prefix_idx` so that the index serves it.
 */
const normalisedAccountSql = sql`upper(regexp_replace(coalesce(p.bill_ref_number, ''), '[\\s-]+', '', 'g'))`;

const likePrefix = (text: string) => `${text.toUpperCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/**
 * Tips deposits: payments that went to a tips subscriber, or whose account number starts with a bet
 * category code (the tips account numbers), claimed or not. The codes are read first so that each
 * is a constant prefix the account index can range-scan, instead of a pattern per row.
 */
export async function listTipsDeposits(
  db: Queryable,
  page: { page: number; perPage: number },
): Promise<{ total: number; deposits: TipsDeposit[] }> {
  const codes = await db.select({ code: betCategories.code }).from(betCategories);
  const namesCategory = codes.length
    ? sql.join(codes.map(({ code }) => sql`${normalisedAccountSql} like ${likePrefix(code)}`), sql` or `)
    : sql`false`;
  const where = sql`p.status <> 'rejected' and (p.subscriber_id is not null or (p.client_id is null and (${namesCategory})))`;
  const offset = (page.page - 1) * page.perPage;
  const { found, total } = await pageWithTotal<PaymentRow>(
    db,
    {
      query: sql`
        select ${paymentColumns} ${paymentJoins}
         where ${where}
         order by p.received_at desc, p.id desc
         limit ${page.perPage} offset ${offset}`,
      offset,
    },
    sql`select count(*) as total from ${mpesaPayments} p where ${where}`,
  );
  return {
    total,
    deposits: found.map((r) => ({
      id: Number(r.id),
      sender_phone: r.sender_phone,
      sender_name: r.sender_name,
      amount: kes(r.amount_cents),
      transaction_reference: r.reference,
      transaction_timestamp: iso(r.at),
      status: r.status,
    })),
  };
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
