import type { RouteObject } from 'react-router';
import { NotFoundPage } from './components/not-found-page.tsx';

/** Last inside the signed-in layout: whatever no feature claimed. */
export const notFoundRoute: RouteObject = { id: 'not-found', path: '*', element: <NotFoundPage /> };
