import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

/** Routes open without a session. */
export const publicRoutes: RouteObject[] = [
  {
    id: 'login',
    handle: { title: 'Sign in' },
    path: paths.login,
    lazy: screen(() => import('./components/login-page.tsx'), (m) => <m.LoginPage />),
  },
];
