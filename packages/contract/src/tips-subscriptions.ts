import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Kes } from './common.ts';
import { ListCounts, listQuery } from './lists.ts';
import { InvoiceRef } from './tax.ts';

/** A tips subscription as the tables read it: status_id 1 (active, green) while the expiry is ahead, else 0. */
export const TipsSubscription = z.object({
  id: z.number(),
  subscriber_id: z.number(),
  name: z.string(),
  phone: z.string(),
  done_on: z.string(),
  /** Days. */
  duration: z.number(),
  expiry_date: z.string(),
  /** The bet category and medium bought, e.g. "Daily 2 Odds (D2) by SMS". */
  bets: z.string(),
  amount: Kes,
  /** Section 3 names it both `status` and `status_id`: the same 1 (active, green) or 0 (red). */
  status: z.union([z.literal(1), z.literal(0)]),
  status_id: z.number(),
  status_name: z.string(),
  /** The sale's KRA tax invoice (lists and the subscriber's page; none for a staff grant). */
  invoice: InvoiceRef.nullable().optional(),
});
export type TipsSubscription = z.infer<typeof TipsSubscription>;

const SubscriptionsPage = ListCounts.extend({ subscriptions: z.array(TipsSubscription) });

export const allTipsSubscriptions = endpoint({
  method: 'GET',
  path: '/api/tips/subscriptions/all',
  tag: 'tips-subscriptions',
  summary: 'Every tips subscription, newest first (search by subscriber name or phone; from/to on the day taken)',
  access: 'view:tips-subscriptions-all',
  query: listQuery('tipsSubscriptions'),
  response: SubscriptionsPage,
});

export const activeTipsSubscriptions = endpoint({
  method: 'GET',
  path: '/api/tips/subscriptions/active',
  tag: 'tips-subscriptions',
  summary: 'Tips subscriptions whose expiry is ahead, soonest expiry first',
  access: 'view:tips-subscriptions-active',
  query: listQuery('activeTipsSubscriptions'),
  response: SubscriptionsPage,
});
