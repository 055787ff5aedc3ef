import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { ClosedBetsPage } from './components/closed-bets-page.tsx';
import { OpenBetsPage } from './components/open-bets-page.tsx';

export const routes: RouteObject[] = [
  { id: 'bets.open', path: paths.bets.open, element: <OpenBetsPage /> },
  { id: 'bets.closed', path: paths.bets.closed, element: <ClosedBetsPage /> },
];
