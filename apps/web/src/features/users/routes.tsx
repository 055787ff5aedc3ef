import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { AssignClientsPage } from './components/assign-clients-page.tsx';
import { UserClientsPage } from './components/user-clients-page.tsx';
import { UsersPage } from './components/users-page.tsx';

export const routes: RouteObject[] = [
  { id: 'users', path: paths.users.all, element: <UsersPage /> },
  { id: 'users.assign-clients', path: paths.users.assignClients, element: <AssignClientsPage /> },
  { id: 'users.view-clients', path: '/users/:user_id/clients', element: <UserClientsPage /> },
];
