import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  {
    id: 'exclusions',
    handle: { title: 'Self-exclusion' },
    path: paths.exclusions,
    lazy: screen(() => import('./components/exclusions-page.tsx'), (m) => <m.ExclusionsPage />),
  },
];
