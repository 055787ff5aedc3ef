import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { BonusPaymentsPage } from './components/bonus-payments-page.tsx';
import { BonusesPage } from './components/bonuses-page.tsx';

export const routes: RouteObject[] = [
  { id: 'bonuses', path: paths.bonuses.all, element: <BonusesPage which="all" /> },
  { id: 'bonuses.paid', path: paths.bonuses.paid, element: <BonusPaymentsPage /> },
  { id: 'bonuses.unpaid', path: paths.bonuses.unpaid, element: <BonusesPage which="unpaid" /> },
];
