import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { UpdateSmsTipsPage } from './components/update-sms-tips-page.tsx';
import { ViewSmsTipsPage } from './components/view-sms-tips-page.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.sms-tips.update', path: paths.tips.updateSmsTips, element: <UpdateSmsTipsPage /> },
  { id: 'tips.sms-tips.view', path: paths.tips.viewSmsTips, element: <ViewSmsTipsPage /> },
];
