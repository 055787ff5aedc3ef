import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { SubscriptionsPage } from './components/subscriptions-page.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.subscriptions.all', path: paths.tips.allSubscriptions, element: <SubscriptionsPage scope="all" /> },
  { id: 'tips.subscriptions.active', path: paths.tips.activeSubscriptions, element: <SubscriptionsPage scope="active" /> },
];
