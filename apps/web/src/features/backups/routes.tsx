import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [{ id: 'backups', handle: { title: 'Backups', access: 'manage:backups' }, path: paths.backups, lazy: screen(() => import('./components/backups-page.tsx'), (m) => <m.BackupsPage />) }];
