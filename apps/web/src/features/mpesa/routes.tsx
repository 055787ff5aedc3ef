import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { ReconciliationPage } from './components/reconciliation-page.tsx';
import { TransactionsPage } from './components/transactions-page.tsx';

export const routes: RouteObject[] = [
  { id: 'mpesa', path: paths.mpesa.all, element: <TransactionsPage view="all" /> },
  { id: 'mpesa.reconciliation', path: paths.mpesa.reconciliation, element: <ReconciliationPage /> },
  { id: 'mpesa.unclaimed', path: paths.mpesa.unclaimed, element: <TransactionsPage view="unclaimed" key="unclaimed" /> },
];
