import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { TipsDepositsPage } from './components/tips-deposits-page.tsx';

export const routes: RouteObject[] = [{ id: 'tips.mpesa', path: paths.tips.mpesa, element: <TipsDepositsPage /> }];
