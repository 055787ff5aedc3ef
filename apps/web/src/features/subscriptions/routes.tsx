import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'subscriptions', handle: { title: 'Recent subscriptions', access: 'view:subscriptions' }, path: paths.subscriptions.recent, lazy: screen(() => import('./components/subscriptions-page.tsx'), (m) => <m.SubscriptionsPage which="recent" />) },
  { id: 'subscriptions.all', handle: { title: 'All subscriptions', access: 'view:subscriptions' }, path: paths.subscriptions.all, lazy: screen(() => import('./components/subscriptions-page.tsx'), (m) => <m.SubscriptionsPage which="all" />) },
];
