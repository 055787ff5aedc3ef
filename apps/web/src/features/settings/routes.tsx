import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [{ id: 'settings', handle: { title: 'Settings', access: 'manage:settings' }, path: paths.settings, lazy: screen(() => import('./components/settings-page.tsx'), (m) => <m.SettingsPage />) }];
