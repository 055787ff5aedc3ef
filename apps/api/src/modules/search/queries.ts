import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_LIMIT_PER_KIND } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { containing } from '../../db/list.ts';
import { rows } from '../../db/rows.ts';
import { scopedWhere, type Scope } from '../../db/scope.ts';
import { bets, clients, mpesaPayments, refunds, taxInvoices, tipsSubscribers } from '../../db/schema/index.ts';

/**
 * One bounded lookup per kind (decision 067): equality, a prefix range or a trigram match on an
 * indexed column, at most SEARCH_LIMIT_PER_KIND rows each. A prefix is written as a `~>=~`/`~<~`
 * range (text_pattern_ops, migration 0059), so the b-tree serves it whatever the database's
 * collation, as `accountStartsWith` does for accounts.
 */
const limit = sql.raw(String(SEARCH_LIMIT_PER_KIND));

/** `column` starts with `prefix`: the range of a text_pattern_ops index. */
function startsWith(column: SQL, prefix: string): SQL {
  const last = prefix.codePointAt(prefix.length - 1)!;
  const after = `${prefix.slice(0, -1)}${String.fromCodePoint(last + 1)}`;
  return sql`(${column} ~>=~ ${prefix} and ${column} ~<~ ${after})`;
}

export interface FoundPayment {
  id: number;
  trans_id: string;
  amount_cents: string | null;
  sender_name: string | null;
  status: string;
}

/** Payments by receipt (its first characters, upper case) or by the payer's phone (plain or hashed). */
export async function paymentsFound(db: Queryable, scope: Scope, by: { receipt?: string; phone?: string; phoneHash?: string }): Promise<FoundPayment[]> {
  const match = by.receipt
    ? startsWith(sql`p.trans_id`, by.receipt)
    : sql`(p.sender_phone = ${by.phone!} or p.msisdn = ${by.phone!} or p.msisdn = ${by.phoneHash!})`;
  return rows<FoundPayment>(
    db,
    sql`select p.id, p.trans_id, p.amount_cents, p.sender_name, p.status from ${mpesaPayments} p
         where ${scopedWhere(scope, 'p', match, sql`p.trans_id is not null`)}
         order by p.paid_at desc, p.id desc limit ${limit}`,
  );
}

export interface FoundPerson {
  id: number;
  name: string;
  phone: string;
}

/**
 * Clients by phone (the live phone key) or by a part of the name (the trigram indexes the clients
 * list searches with: `(assigned_user_id, name)` for a staff member, `name` for an admin), in the
 * scope. Names are not sorted: the first few the index gives, so a common part costs no sort.
 */
export async function clientsFound(db: Queryable, scope: Scope, by: { phone?: string; name?: string }): Promise<FoundPerson[]> {
  const match = by.phone ? sql`c.phone = ${by.phone}` : sql`c.name ilike ${containing(by.name!)}`;
  return rows<FoundPerson>(
    db,
    sql`select c.id, c.name, c.phone from ${clients} c
         where ${scopedWhere(scope, 'c', match, sql`c.deleted_at is null`)} limit ${limit}`,
  );
}

/** Tips subscribers (no owner: every staff member serves them) by phone hash or a part of the name (trigram index). */
export async function subscribersFound(db: Queryable, by: { phoneHash?: string; name?: string }): Promise<FoundPerson[]> {
  const match = by.phoneHash ? sql`s.phone_hash = ${by.phoneHash}` : sql`s.name ilike ${containing(by.name!)}`;
  return rows<FoundPerson>(db, sql`select s.id, s.name, s.phone from ${tipsSubscribers} s where ${match} limit ${limit}`);
}

export interface FoundBet {
  id: number;
  client_id: number;
  client_name: string;
  description: string;
  status: string;
}

/** A bet by its number, in the scope. */
export async function betFound(db: Queryable, scope: Scope, id: number): Promise<FoundBet[]> {
  return rows<FoundBet>(
    db,
    sql`select b.id, b.client_id, c.name as client_name, b.description, b.status from ${bets} b
         join ${clients} c on c.id = b.client_id
         where ${scopedWhere(scope, 'b', sql`b.id = ${id}`)}`,
  );
}

export interface FoundRefund {
  id: number;
  trans_id: string | null;
  amount_cents: string;
  status: string;
}

/** A refund by its number (admins only: the caller checks). */
export async function refundFound(db: Queryable, id: number): Promise<FoundRefund[]> {
  return rows<FoundRefund>(
    db,
    sql`select r.id, p.trans_id, r.amount_cents, r.status from ${refunds} r
         join ${mpesaPayments} p on p.id = r.payment_id where r.id = ${id}`,
  );
}

export interface FoundInvoice {
  id: number;
  kind: string;
  branch_id: string;
  number: number;
  amount_cents: string;
  status: string;
}

/** Invoices and credit notes by number, in every branch (admins only: the caller checks). */
export async function invoicesFound(db: Queryable, number: number): Promise<FoundInvoice[]> {
  return rows<FoundInvoice>(
    db,
    sql`select t.id, t.kind, t.branch_id, t.number, t.amount_cents, t.status from ${taxInvoices} t
         where t.number = ${number} order by t.id desc limit ${limit}`,
  );
}
