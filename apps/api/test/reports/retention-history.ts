import type { Queryable } from '../../src/db/client.ts';
import { mpesaPayments, stkRequests, subscriptions } from '../../src/db/schema/index.ts';
import type { HistoryRow } from '../../src/modules/reports/retention-formulas.ts';

/** An instant given as Nairobi wall-clock time (UTC+3 all year). */
export const nairobi = (local: string) => new Date(`${local}+03:00`);

export interface People {
  /** Renews early: buys the second week three days before the first ends (it stacks). */
  early: number;
  /** Lets the first week end, comes back twelve days later (a reactivation, not a renewal). */
  comeback: number;
  /** Pays, is refunded the same day, never has a cover. */
  refunded: number;
  /** Renews two days after the end: inside the 3-day grace. */
  graceful: number;
  category: number;
  other: number;
}

type Row = Omit<HistoryRow, 'id'>;

const week = (subscriberId: number, categoryId: number, created: string, starts: string, expires: string, over: Partial<Row> = {}): Row => ({
  subscriberId,
  categoryId,
  medium: 'sms',
  source: 'mpesa',
  channel: 'paybill',
  amountCents: 10_000,
  createdAt: nairobi(created),
  startsAt: nairobi(starts),
  expiresAt: nairobi(expires),
  reversedAt: null,
  ...over,
});

/**
 * The hand-made January 2026 history of docs/BUSINESS-RULES.md ("Retention figures"): four
 * subscribers of one category (KES 100 a week by SMS), in the order bought.
 */
export function januaryHistory(p: People): Row[] {
  return [
    week(p.early, p.category, '2026-01-05T10:00:00', '2026-01-05T10:00:00', '2026-01-12T10:00:00'),
    week(p.comeback, p.category, '2026-01-06T09:00:00', '2026-01-06T09:00:00', '2026-01-13T09:00:00', { source: 'stk', channel: 'ussd' }),
    week(p.refunded, p.other, '2026-01-07T08:00:00', '2026-01-07T08:00:00', '2026-01-14T08:00:00', {
      reversedAt: nairobi('2026-01-07T12:00:00'),
    }),
    week(p.graceful, p.category, '2026-01-08T12:00:00', '2026-01-08T12:00:00', '2026-01-15T12:00:00', { source: 'manual', channel: 'staff' }),
    week(p.early, p.category, '2026-01-10T18:00:00', '2026-01-12T10:00:00', '2026-01-19T10:00:00'),
    week(p.graceful, p.category, '2026-01-17T12:00:00', '2026-01-17T12:00:00', '2026-01-24T12:00:00'),
    week(p.comeback, p.category, '2026-01-25T09:00:00', '2026-01-25T09:00:00', '2026-02-01T09:00:00'),
  ];
}

/**
 * Six months for lifetime value: one subscriber on a KES 1,000 monthly package from July to
 * December 2025 without a break, another who bought July only.
 */
export function halfYearHistory(loyal: number, once: number, category: number): Row[] {
  const months = ['07', '08', '09', '10', '11', '12'];
  const next = (m: string) => (m === '12' ? '2026-01' : `2025-${String(Number(m) + 1).padStart(2, '0')}`);
  const month = (subscriberId: number, m: string): Row => ({
    subscriberId,
    categoryId: category,
    medium: 'web',
    source: 'mpesa',
    channel: 'paybill',
    amountCents: 100_000,
    createdAt: nairobi(`2025-${m}-01T10:00:00`),
    startsAt: nairobi(`2025-${m}-01T10:00:00`),
    expiresAt: nairobi(`${next(m)}-01T10:00:00`),
    reversedAt: null,
  });
  return [...months.map((m) => month(loyal, m)), month(once, '07')];
}

let receipts = 0;

/**
 * Stores tips subscriptions of a history in one transaction. An STK purchase is stored as the
 * product stores it: the payment, the payment request it answered (whose origin is the row's
 * channel; `stk` is staff's request), and the subscription pointing at the payment.
 */
export function storeHistory(db: Queryable, rows: readonly Omit<HistoryRow, 'id'>[]): Promise<void> {
  return db.transaction(async (tx) => {
    for (const r of rows) {
      let paymentId: number | null = null;
      if (r.source === 'stk') {
        receipts += 1;
        const transId = `RTN${String(receipts).padStart(7, '0')}`;
        const [payment] = await tx
          .insert(mpesaPayments)
          .values({ transId, source: 'stk', amountCents: r.amountCents, raw: {}, status: 'claimed', subscriberId: r.subscriberId, transTime: r.createdAt })
          .returning({ id: mpesaPayments.id });
        paymentId = payment!.id;
        await tx.insert(stkRequests).values({
          purpose: 'package',
          subscriberId: r.subscriberId,
          phone: '254700000000',
          amountCents: r.amountCents,
          accountReference: 'RTN',
          status: 'paid',
          paymentId,
          origin: r.channel === 'stk' ? 'staff' : (r.channel as 'portal' | 'ussd' | 'sms'),
        });
      }
      await tx.insert(subscriptions).values({
        subscriberId: r.subscriberId,
        betCategoryId: r.categoryId,
        medium: r.medium,
        durationDays: 7,
        amountCents: r.amountCents,
        createdAt: r.createdAt,
        startsAt: r.startsAt,
        expiresAt: r.expiresAt,
        source: r.source,
        paymentId,
        reversedAt: r.reversedAt,
      });
    }
  });
}
