import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { AddSubscriberPage } from './components/add-subscriber-page.tsx';
import { SubscribersPage } from './components/subscribers-page.tsx';
import { ViewSubscriberPage } from './components/view-subscriber-page.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.subscribers.add', path: paths.tips.addSubscriber, element: <AddSubscriberPage /> },
  { id: 'tips.subscribers.active', path: paths.tips.activeSubscribers, element: <SubscribersPage scope="active" /> },
  { id: 'tips.subscribers.all', path: paths.tips.allSubscribers, element: <SubscribersPage scope="all" /> },
  { id: 'tips.subscribers.view', path: '/tips/subscribers/view/:subscriber_id', element: <ViewSubscriberPage /> },
];
