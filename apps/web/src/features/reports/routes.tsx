import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';

export const routes: RouteObject[] = [
  {
    id: 'reports',
    handle: { title: 'Reports', access: 'view:reports' },
    path: paths.reports,
    lazy: async () => ({ Component: (await import('./components/reports-page.tsx')).ReportsPage }),
  },
];
