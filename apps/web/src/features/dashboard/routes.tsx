import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { WelcomePage } from './components/welcome-page.tsx';

export const routes: RouteObject[] = [{ id: 'dashboard', path: paths.dashboard, element: <WelcomePage /> }];
