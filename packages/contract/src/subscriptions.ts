import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Kes, PageQuery } from './common.ts';
import { csvExport, Bet4meSubscription } from './clients.ts';

/** How far back "recent" subscriptions reach. */
export const RECENT_SUBSCRIPTION_DAYS = 30;

/** Income here is what Bet4Me subscriptions brought in (all time, and today in Nairobi). */
const SubscriptionPage = z.object({
  total_records: z.number(),
  subscriptions: z.array(Bet4meSubscription),
  total_income: Kes,
  total_income_today: Kes,
});

export const recentSubscriptions = endpoint({
  method: 'GET',
  path: '/api/subscriptions',
  tag: 'subscriptions',
  summary: `Bet4Me subscriptions taken in the last ${RECENT_SUBSCRIPTION_DAYS} days, newest first, paged (admin)`,
  access: 'view:subscriptions',
  query: PageQuery,
  response: SubscriptionPage,
});

export const allSubscriptions = endpoint({
  method: 'GET',
  path: '/api/subscriptions/all',
  tag: 'subscriptions',
  summary: 'Every Bet4Me subscription, newest first, paged (admin)',
  access: 'view:subscriptions',
  query: PageQuery,
  response: SubscriptionPage,
});

export const exportRecentSubscriptions = csvExport({
  path: '/api/subscriptions/export',
  tag: 'subscriptions',
  summary: 'CSV of the recent Bet4Me subscriptions',
  access: 'view:subscriptions',
});

export const exportAllSubscriptions = csvExport({
  path: '/api/subscriptions/all/export',
  tag: 'subscriptions',
  summary: 'CSV of every Bet4Me subscription',
  access: 'view:subscriptions',
});
