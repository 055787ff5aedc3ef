import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { PricesPage } from './components/prices-page.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.prices.web', path: paths.tips.webTipsPrices, element: <PricesPage medium="web" /> },
  { id: 'tips.prices.sms', path: paths.tips.smsTipsPrices, element: <PricesPage medium="sms" /> },
];
