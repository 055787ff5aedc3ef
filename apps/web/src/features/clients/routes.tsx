import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { ActiveClientsPage } from './components/active-clients-page.tsx';
import { ClientListPage } from './components/client-list-page.tsx';
import { ClientPage } from './components/client-page.tsx';
import { ClientsPage } from './components/clients-page.tsx';

export const routes: RouteObject[] = [
  { id: 'clients.active', path: paths.clients.active, element: <ActiveClientsPage /> },
  { id: 'clients', path: paths.clients.all, element: <ClientsPage /> },
  { id: 'clients.show', path: '/clients/:client_id', element: <ClientPage /> },
  { id: 'clients.subscriptions', path: '/clients/:client_id/subscriptions', element: <ClientListPage kind="subscriptions" /> },
  { id: 'clients.bets', path: '/clients/:client_id/bets', element: <ClientListPage kind="bets" /> },
  { id: 'clients.bonuses', path: '/clients/:client_id/bonuses', element: <ClientListPage kind="bonuses" /> },
  { id: 'clients.paid-bonuses', path: '/clients/:client_id/paid-bonuses', element: <ClientListPage kind="paid-bonuses" /> },
];
