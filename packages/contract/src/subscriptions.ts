import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { Kes } from './common.ts';
import { ListCounts, listFilterQuery, listQuery } from './lists.ts';
import { Bet4meSubscription } from './clients.ts';

/** How far back "recent" subscriptions reach. */
export const RECENT_SUBSCRIPTION_DAYS = 30;

/**
 * Income here is what Bet4Me subscriptions brought in: over the chosen days when from/to are given,
 * else all time; and today in Nairobi.
 */
const SubscriptionPage = ListCounts.extend({
  subscriptions: z.array(Bet4meSubscription),
  total_income: Kes,
  total_income_today: Kes,
});

export const recentSubscriptions = endpoint({
  method: 'GET',
  path: '/api/subscriptions',
  tag: 'subscriptions',
  summary: `Bet4Me subscriptions taken in the last ${RECENT_SUBSCRIPTION_DAYS} days, newest first, paged (admin; from/to replace the ${RECENT_SUBSCRIPTION_DAYS} days and narrow the income)`,
  access: 'view:subscriptions',
  query: listQuery('subscriptions'),
  response: SubscriptionPage,
});

export const allSubscriptions = endpoint({
  method: 'GET',
  path: '/api/subscriptions/all',
  tag: 'subscriptions',
  summary: 'Every Bet4Me subscription, newest first, paged (admin; from/to narrow the rows and the income)',
  access: 'view:subscriptions',
  query: listQuery('allSubscriptions'),
  response: SubscriptionPage,
});

export const exportRecentSubscriptions = csvExport({
  path: '/api/subscriptions/export',
  tag: 'subscriptions',
  summary: 'CSV of the recent Bet4Me subscriptions, filtered and ordered as the list',
  access: 'view:subscriptions',
  query: listFilterQuery('subscriptions'),
});

export const exportAllSubscriptions = csvExport({
  path: '/api/subscriptions/all/export',
  tag: 'subscriptions',
  summary: 'CSV of every Bet4Me subscription, filtered and ordered as the list',
  access: 'view:subscriptions',
  query: listFilterQuery('allSubscriptions'),
});
