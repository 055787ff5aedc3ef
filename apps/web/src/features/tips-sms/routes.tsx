import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.sms-tips.update', handle: { title: 'Update SMS tips' }, path: paths.tips.updateSmsTips, lazy: screen(() => import('./components/update-sms-tips-page.tsx'), (m) => <m.UpdateSmsTipsPage />) },
  { id: 'tips.sms-tips.view', handle: { title: 'View SMS tips' }, path: paths.tips.viewSmsTips, lazy: screen(() => import('./components/view-sms-tips-page.tsx'), (m) => <m.ViewSmsTipsPage />) },
];
