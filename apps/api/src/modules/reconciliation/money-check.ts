import { desc, sql, type SQL } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, kesFixed, type MoneyCheck } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { bonusPayments, ledgerEntries, moneyChecks, mpesaPayments, refunds, subscriptions } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';

const EXAMPLES = 5;
/** Days back the per-day invariant looks at (older days were checked on earlier nights). */
const DAYS_CHECKED = 92;

type Failure = MoneyCheck['failures'][number];

/** Runs one invariant: a query answering the offending rows (with `total_records`) and how to name one. */
async function violations(db: Db, check: string, query: SQL, describe: (row: Record<string, unknown>) => string): Promise<Failure | null> {
  const found = await rows<Record<string, unknown>>(db, sql`select *, count(*) over() as total_records from (${query}) v limit ${EXAMPLES}`);
  if (found.length === 0) return null;
  return { check, count: Number(found[0]!.total_records), examples: found.map(describe) };
}


/**
 * The money invariants, each a query for what breaks it:
 * - per Nairobi day, received = claimed + unclaimed + refunded (a claimed payment names its payee, an
 *   unclaimed one nobody; what refunds returned of either counts as refunded);
 * - each payment's refunded amount is exactly the refunds M-Pesa confirmed for it;
 * - each payment's ledger entries balance: a claimed payment is credited exactly its amount (net of
 *   take-backs) and spent no more than that; an unclaimed or rejected one nets to nothing;
 * - every subscription bought by a payment points at a claimed payment of the same person;
 * - each client's and subscriber's balance (the sum of their entries) equals what the documents
 *   say: claimed payments, less subscriptions bought (refunded when reversed), less bonuses paid,
 *   plus standalone adjustments (opening balances).
 */
export async function checkMoney(db: Db): Promise<Failure[]> {
  const daily = violations(
    db,
    'received = claimed + unclaimed + refunded per day',
    sql`select day, received, claimed, unclaimed, refunded from (
          select (coalesce(trans_time, received_at) at time zone ${BUSINESS_TIME_ZONE})::date::text as day,
                 coalesce(sum(amount_cents) filter (where status <> 'rejected'), 0) as received,
                 coalesce(sum(amount_cents - refunded_cents) filter (where status = 'claimed' and (client_id is not null or subscriber_id is not null)), 0) as claimed,
                 coalesce(sum(amount_cents - refunded_cents) filter (where status = 'unclaimed' and client_id is null and subscriber_id is null), 0) as unclaimed,
                 coalesce(sum(refunded_cents) filter (where status <> 'rejected'), 0) as refunded
            from ${mpesaPayments}
           where received_at >= now() - make_interval(days => ${DAYS_CHECKED})
           group by 1) d
         where received <> claimed + unclaimed + refunded`,
    (r) =>
      `${r.day}: received KES ${kesFixed(r.received)}, claimed ${kesFixed(r.claimed)}, unclaimed ${kesFixed(r.unclaimed)}, refunded ${kesFixed(r.refunded)}`,
  );

  // Each shilling out traced to a shilling in: a payment's refunded amount is exactly its done refunds.
  const refundedTraced = violations(
    db,
    "each payment's refunded amount equals its done refunds",
    sql`select p.id, coalesce(p.trans_id, '') as receipt, p.amount_cents, p.refunded_cents, coalesce(r.done, 0) as done
          from ${mpesaPayments} p
          left join (select payment_id, sum(amount_cents) as done from ${refunds} where status = 'done' group by payment_id) r
            on r.payment_id = p.id
         where (p.refunded_cents <> 0 or r.done is not null)
           and (p.refunded_cents <> coalesce(r.done, 0) or p.refunded_cents > coalesce(p.amount_cents, 0))
         order by p.id`,
    (r) => `payment ${r.id} ${r.receipt} (KES ${kesFixed(r.amount_cents)}): refunded KES ${kesFixed(r.refunded_cents)}, done refunds KES ${kesFixed(r.done)}`,
  );

  const paymentLedger = violations(
    db,
    "each payment's ledger entries balance",
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
    (r) => `payment ${r.id} ${r.receipt} (${r.status}, KES ${kesFixed(r.amount_cents)}): credited KES ${kesFixed(r.credited)}, left KES ${kesFixed(r.total)}`,
  );

  const boughtBy = violations(
    db,
    'every subscription bought by a payment points at a claimed payment',
    sql`select s.id, s.payment_id, p.status
          from ${subscriptions} s join ${mpesaPayments} p on p.id = s.payment_id
         where p.status <> 'claimed'
            or coalesce(p.client_id, 0) <> coalesce(s.client_id, 0)
            or coalesce(p.subscriber_id, 0) <> coalesce(s.subscriber_id, 0)
         order by s.id`,
    (r) => `subscription ${r.id} bought by payment ${r.payment_id} (${r.status})`,
  );

  const balances = violations(
    db,
    "each client's and subscriber's balance equals the sum of their entries",
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
    (r) =>
      `${Number(r.client_id) ? `client ${r.client_id}` : `subscriber ${r.subscriber_id}`}: entries sum to KES ${kesFixed(r.ledger)}, payments and purchases say KES ${kesFixed(r.documents)}`,
  );

  return (await Promise.all([daily, refundedTraced, paymentLedger, boughtBy, balances])).filter((f): f is Failure => f !== null);
}

/**
 * Refunds handed to M-Pesa whose end is not known yet (sent without a result, or unknown): not a
 * failure, but listed by every check until M-Pesa's result or a status query settles them.
 */
export async function unconfirmedRefunds(db: Db): Promise<string[]> {
  const found = await rows<Record<string, unknown>>(
    db,
    sql`select r.id, r.status, r.amount_cents, coalesce(p.trans_id, '') as receipt, r.sent_at
          from ${refunds} r join ${mpesaPayments} p on p.id = r.payment_id
         where r.status = 'unknown' or (r.status = 'sending' and r.sent_at is not null)
         order by r.id`,
  );
  return found.map((r) => `refund ${r.id} of payment ${r.receipt}: KES ${kesFixed(r.amount_cents)} ${r.status === 'unknown' ? 'unknown, being asked' : 'sent, awaiting M-Pesa'}`);
}

export function moneyCheckOf(r: typeof moneyChecks.$inferSelect): MoneyCheck {
  return {
    ran_at: r.ranAt.toISOString(),
    ok: r.ok,
    failures: r.failures as MoneyCheck['failures'],
    unconfirmed_refunds: r.unconfirmedRefunds as string[],
  };
}

/** Runs the invariants and stores the result (the dashboard's banner reads the latest). */
export async function runMoneyCheck(db: Db): Promise<MoneyCheck> {
  const failures = await checkMoney(db);
  const pending = await unconfirmedRefunds(db);
  const [stored] = await db.insert(moneyChecks).values({ ok: failures.length === 0, failures, unconfirmedRefunds: pending }).returning();
  return moneyCheckOf(stored!);
}

export async function latestMoneyCheck(db: Db): Promise<MoneyCheck | null> {
  const [last] = await db.select().from(moneyChecks).orderBy(desc(moneyChecks.ranAt), desc(moneyChecks.id)).limit(1);
  return last ? moneyCheckOf(last) : null;
}
