import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { ProfilePage } from './components/profile-page.tsx';

export const routes: RouteObject[] = [{ id: 'me', path: paths.me, element: <ProfilePage /> }];
