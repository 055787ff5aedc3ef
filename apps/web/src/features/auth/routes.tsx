import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { LoginPage } from './components/login-page.tsx';

/** Routes open without a session. */
export const publicRoutes: RouteObject[] = [{ id: 'login', path: paths.login, element: <LoginPage /> }];
