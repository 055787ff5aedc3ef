import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'privacy', handle: { title: 'Privacy', access: 'manage:privacy' }, path: paths.privacy, lazy: screen(() => import('./components/privacy-page.tsx'), (m) => <m.PrivacyPage />) },
];
