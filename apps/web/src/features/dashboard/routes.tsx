import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { DashboardPage } from './components/dashboard-page.tsx';

export const routes: RouteObject[] = [{ id: 'dashboard', path: paths.dashboard, element: <DashboardPage /> }];
