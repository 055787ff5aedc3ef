import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  {
    id: 'agents',
    handle: { title: 'Agents', access: 'manage:agents' },
    path: paths.agents,
    lazy: screen(() => import('./components/agents-page.tsx'), (m) => <m.AgentsPage />),
  },
];
