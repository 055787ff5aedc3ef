import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [{ id: 'me', handle: { title: 'My profile' }, path: paths.me, lazy: screen(() => import('./components/profile-page.tsx'), (m) => <m.ProfilePage />) }];
