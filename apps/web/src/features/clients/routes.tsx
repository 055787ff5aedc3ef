import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'clients.active', handle: { title: 'Active clients' }, path: paths.clients.active, lazy: screen(() => import('./components/active-clients-page.tsx'), (m) => <m.ActiveClientsPage />) },
  { id: 'clients', handle: { title: 'All clients' }, path: paths.clients.all, lazy: screen(() => import('./components/clients-page.tsx'), (m) => <m.ClientsPage />) },
  { id: 'clients.show', handle: { title: 'Client' }, path: '/clients/:client_id', lazy: screen(() => import('./components/client-page.tsx'), (m) => <m.ClientPage />) },
  { id: 'clients.subscriptions', handle: { title: 'Client subscriptions' }, path: '/clients/:client_id/subscriptions', lazy: screen(() => import('./components/client-list-page.tsx'), (m) => <m.ClientListPage kind="subscriptions" />) },
  { id: 'clients.bets', handle: { title: 'Client bets' }, path: '/clients/:client_id/bets', lazy: screen(() => import('./components/client-list-page.tsx'), (m) => <m.ClientListPage kind="bets" />) },
  { id: 'clients.bonuses', handle: { title: 'Client bonuses' }, path: '/clients/:client_id/bonuses', lazy: screen(() => import('./components/client-list-page.tsx'), (m) => <m.ClientListPage kind="bonuses" />) },
  { id: 'clients.paid-bonuses', handle: { title: 'Client paid bonuses' }, path: '/clients/:client_id/paid-bonuses', lazy: screen(() => import('./components/client-list-page.tsx'), (m) => <m.ClientListPage kind="paid-bonuses" />) },
];
