import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [{ id: 'catalogue', handle: { title: 'Catalogue', access: 'manage:catalogue' }, path: paths.catalogue, lazy: screen(() => import('./components/catalogue-page.tsx'), (m) => <m.CataloguePage />) }];
