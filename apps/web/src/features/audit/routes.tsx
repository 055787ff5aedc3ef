import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';

export const routes: RouteObject[] = [
  {
    id: 'audit', handle: { title: 'Audit log', access: 'view:audit' },
    path: paths.audit,
    lazy: async () => ({ Component: (await import('./components/audit-page.tsx')).AuditPage }),
  },
];
