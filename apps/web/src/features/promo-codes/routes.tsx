import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  {
    id: 'promo-codes',
    handle: { title: 'Promo codes', access: 'manage:promo-codes' },
    path: paths.promoCodes,
    lazy: screen(() => import('./components/promo-codes-page.tsx'), (m) => <m.PromoCodesPage />),
  },
];
