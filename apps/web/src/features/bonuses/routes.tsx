import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'bonuses', handle: { title: 'All bonuses' }, path: paths.bonuses.all, lazy: screen(() => import('./components/bonuses-page.tsx'), (m) => <m.BonusesPage which="all" />) },
  { id: 'bonuses.paid', handle: { title: 'Paid bonuses' }, path: paths.bonuses.paid, lazy: screen(() => import('./components/bonus-payments-page.tsx'), (m) => <m.BonusPaymentsPage />) },
  { id: 'bonuses.unpaid', handle: { title: 'Unpaid bonuses' }, path: paths.bonuses.unpaid, lazy: screen(() => import('./components/bonuses-page.tsx'), (m) => <m.BonusesPage which="unpaid" />) },
];
