import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'mpesa', handle: { title: 'M-Pesa transactions', access: 'view:mpesa' }, path: paths.mpesa.all, lazy: screen(() => import('./components/transactions-page.tsx'), (m) => <m.TransactionsPage view="all" />) },
  { id: 'mpesa.reconciliation', handle: { title: 'Reconciliation', access: 'reconcile:payments' }, path: paths.mpesa.reconciliation, lazy: screen(() => import('./components/reconciliation-page.tsx'), (m) => <m.ReconciliationPage />) },
  { id: 'mpesa.unclaimed', handle: { title: 'Unclaimed payments', access: 'view:mpesa' }, path: paths.mpesa.unclaimed, lazy: screen(() => import('./components/transactions-page.tsx'), (m) => <m.TransactionsPage view="unclaimed" key="unclaimed" />) },
];
