import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { AppLayout } from './layout/app-layout.tsx';
import { RequireSession } from './require-session.tsx';
import { RouteError } from './route-error.tsx';
import { ScreenTitle } from './screen-title.tsx';
import { publicRoutes, sessionRoutes } from './routes.tsx';

/** /login is open; everything else sits in the signed-in layout behind the session guard. */
export const routeTree: RouteObject[] = [
  {
    element: <ScreenTitle />,
    errorElement: <RouteError />,
    // Screens load with their route: until the first one is here the page stays as index.html drew it.
    HydrateFallback: () => null,
    children: [
      ...publicRoutes,
      {
        element: (
          <RequireSession>
            <AppLayout />
          </RequireSession>
        ),
        children: [{ index: true, element: <Navigate to={paths.dashboard} replace /> }, ...sessionRoutes],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routeTree);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
