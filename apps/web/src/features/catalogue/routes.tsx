import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { CataloguePage } from './components/catalogue-page.tsx';

export const routes: RouteObject[] = [{ id: 'catalogue', path: paths.catalogue, element: <CataloguePage /> }];
