import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'refunds', handle: { title: 'Refunds', access: 'manage:refunds' }, path: paths.refunds, lazy: screen(() => import('./components/refunds-page.tsx'), (m) => <m.RefundsPage />) },
];
