import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.prices.web', handle: { title: 'Web tips prices', access: 'manage:tips-prices' }, path: paths.tips.webTipsPrices, lazy: screen(() => import('./components/prices-page.tsx'), (m) => <m.PricesPage medium="web" />) },
  { id: 'tips.prices.sms', handle: { title: 'SMS tips prices', access: 'manage:tips-prices' }, path: paths.tips.smsTipsPrices, lazy: screen(() => import('./components/prices-page.tsx'), (m) => <m.PricesPage medium="sms" />) },
];
