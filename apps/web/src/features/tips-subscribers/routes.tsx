import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.subscribers.add', handle: { title: 'Add subscriber' }, path: paths.tips.addSubscriber, lazy: screen(() => import('./components/add-subscriber-page.tsx'), (m) => <m.AddSubscriberPage />) },
  { id: 'tips.subscribers.active', handle: { title: 'Active subscribers' }, path: paths.tips.activeSubscribers, lazy: screen(() => import('./components/subscribers-page.tsx'), (m) => <m.SubscribersPage scope="active" />) },
  { id: 'tips.subscribers.all', handle: { title: 'All subscribers', access: 'view:tips-subscribers-all' }, path: paths.tips.allSubscribers, lazy: screen(() => import('./components/subscribers-page.tsx'), (m) => <m.SubscribersPage scope="all" />) },
  { id: 'tips.subscribers.view', handle: { title: 'Subscriber' }, path: '/tips/subscribers/view/:subscriber_id', lazy: screen(() => import('./components/view-subscriber-page.tsx'), (m) => <m.ViewSubscriberPage />) },
];
