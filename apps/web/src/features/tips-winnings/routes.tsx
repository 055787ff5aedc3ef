import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { WinningsPage } from './components/winnings-page.tsx';

export const routes: RouteObject[] = [{ id: 'tips.winnings', path: paths.tips.winnings, element: <WinningsPage /> }];
