import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'bets.open', handle: { title: 'Open bets' }, path: paths.bets.open, lazy: screen(() => import('./components/open-bets-page.tsx'), (m) => <m.OpenBetsPage />) },
  { id: 'bets.closed', handle: { title: 'Closed bets' }, path: paths.bets.closed, lazy: screen(() => import('./components/closed-bets-page.tsx'), (m) => <m.ClosedBetsPage />) },
];
