import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { SubscriptionsPage } from './components/subscriptions-page.tsx';

export const routes: RouteObject[] = [
  { id: 'subscriptions', path: paths.subscriptions.recent, element: <SubscriptionsPage which="recent" /> },
  { id: 'subscriptions.all', path: paths.subscriptions.all, element: <SubscriptionsPage which="all" /> },
];
