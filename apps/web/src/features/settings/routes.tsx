import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { SettingsPage } from './components/settings-page.tsx';

export const routes: RouteObject[] = [{ id: 'settings', path: paths.settings, element: <SettingsPage /> }];
