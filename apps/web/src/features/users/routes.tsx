import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'users', handle: { title: 'My users', access: 'manage:users' }, path: paths.users.all, lazy: screen(() => import('./components/users-page.tsx'), (m) => <m.UsersPage />) },
  { id: 'users.assign-clients', handle: { title: 'Assign clients', access: 'assign:clients' }, path: paths.users.assignClients, lazy: screen(() => import('./components/assign-clients-page.tsx'), (m) => <m.AssignClientsPage />) },
  { id: 'users.view-clients', handle: { title: 'User\'s clients', access: 'manage:users' }, path: '/users/:user_id/clients', lazy: screen(() => import('./components/user-clients-page.tsx'), (m) => <m.UserClientsPage />) },
];
