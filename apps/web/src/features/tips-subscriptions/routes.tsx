import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.subscriptions.all', handle: { title: 'All tips subscriptions', access: 'view:tips-subscriptions-all' }, path: paths.tips.allSubscriptions, lazy: screen(() => import('./components/subscriptions-page.tsx'), (m) => <m.SubscriptionsPage scope="all" />) },
  { id: 'tips.subscriptions.active', handle: { title: 'Active tips subscriptions' }, path: paths.tips.activeSubscriptions, lazy: screen(() => import('./components/subscriptions-page.tsx'), (m) => <m.SubscriptionsPage scope="active" />) },
];
