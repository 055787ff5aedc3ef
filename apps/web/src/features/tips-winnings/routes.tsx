import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [{ id: 'tips.winnings', handle: { title: 'Update winnings' }, path: paths.tips.winnings, lazy: screen(() => import('./components/winnings-page.tsx'), (m) => <m.WinningsPage />) }];
