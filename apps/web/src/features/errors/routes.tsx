import type { RouteObject } from 'react-router';
import { screen } from '@/lib/screen.tsx';

/** Last inside the signed-in layout: whatever no feature claimed. */
export const notFoundRoute: RouteObject = {
  id: 'not-found',
  handle: { title: 'Page not found' },
  path: '*',
  lazy: screen(() => import('./components/not-found-page.tsx'), (m) => <m.NotFoundPage />),
};
