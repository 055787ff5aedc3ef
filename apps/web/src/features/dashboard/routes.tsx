import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [{ id: 'dashboard', handle: { title: 'Dashboard' }, path: paths.dashboard, lazy: screen(() => import('./components/dashboard-page.tsx'), (m) => <m.DashboardPage />) }];
