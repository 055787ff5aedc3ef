import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [{ id: 'tips.mpesa', handle: { title: 'Tips M-Pesa transactions', access: 'view:tips-deposits' }, path: paths.tips.mpesa, lazy: screen(() => import('./components/tips-deposits-page.tsx'), (m) => <m.TipsDepositsPage />) }];
