import { and, desc, inArray, ne, sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE } from '@betdesk/contract';
import { clients, mpesaPayments, tipsSubscribers } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/**
 * Income is money received by M-Pesa (every stored payment but rejected payloads), in cents;
 * "today" is the Africa/Nairobi business day.
 */
export async function incomeTotals(db: Queryable): Promise<{ todayCents: number; totalCents: number }> {
  const [row] = await db
    .select({
      today: sql<string>`coalesce(sum(${mpesaPayments.amountCents}) filter (where ${mpesaPayments.receivedAt} >= (date_trunc('day', now() at time zone ${BUSINESS_TIME_ZONE}) at time zone ${BUSINESS_TIME_ZONE})), 0)`,
      total: sql<string>`coalesce(sum(${mpesaPayments.amountCents}), 0)`,
    })
    .from(mpesaPayments)
    .where(ne(mpesaPayments.status, 'rejected'));
  return { todayCents: Number(row?.today ?? 0), totalCents: Number(row?.total ?? 0) };
}

export interface RecentPayment {
  name: string;
  phone: string | null;
  transactionReference: string;
  time: Date;
  amountCents: number;
}

/**
 * The newest payments for the dashboard: who paid (the client or subscriber it is claimed to, else
 * the sender's name), their phone when known, the M-Pesa receipt, when and how much.
 * `clientIds` narrows to payments of those clients (a staff user's own).
 */
export async function recentPayments(
  db: Queryable,
  options: { limit: number; clientIds?: number[] },
): Promise<RecentPayment[]> {
  const filters = [ne(mpesaPayments.status, 'rejected')];
  if (options.clientIds) {
    if (options.clientIds.length === 0) return [];
    filters.push(inArray(mpesaPayments.clientId, options.clientIds));
  }
  const found = await db
    .select({
      name: sql<string>`coalesce(${clients.name}, ${tipsSubscribers.name}, ${mpesaPayments.senderName}, 'Unknown sender')`,
      phone: sql<string | null>`coalesce(${clients.phone}, ${tipsSubscribers.phone}, ${mpesaPayments.senderPhone})`,
      transactionReference: sql<string>`coalesce(${mpesaPayments.transId}, '')`,
      time: sql<Date>`coalesce(${mpesaPayments.transTime}, ${mpesaPayments.receivedAt})`,
      amountCents: sql<string>`coalesce(${mpesaPayments.amountCents}, 0)`,
    })
    .from(mpesaPayments)
    .leftJoin(clients, sql`${clients.id} = ${mpesaPayments.clientId}`)
    .leftJoin(tipsSubscribers, sql`${tipsSubscribers.id} = ${mpesaPayments.subscriberId}`)
    .where(and(...filters))
    .orderBy(desc(mpesaPayments.receivedAt), desc(mpesaPayments.id))
    .limit(options.limit);
  return found.map((p) => ({ ...p, time: new Date(p.time), amountCents: Number(p.amountCents) }));
}

export { receiveC2bConfirmation, receiveStkCallback, storeC2bConfirmation } from './ingest.ts';
export { recheckPendingRequests } from './payment-requests.ts';

export { categoryPricesText } from './receipts.ts';
export { requestCheapestSmsPackage } from './payment-requests.ts';
