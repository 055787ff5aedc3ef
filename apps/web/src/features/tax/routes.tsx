import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [{ id: 'tax', handle: { title: 'Tax', access: 'manage:tax' }, path: paths.tax, lazy: screen(() => import('./components/tax-page.tsx'), (m) => <m.TaxPage />) }];
