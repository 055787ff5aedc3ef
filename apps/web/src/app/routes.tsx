import type { RouteObject } from 'react-router';
import { publicRoutes as authPublicRoutes } from '@/features/auth/routes.tsx';
import { routes as dashboardRoutes } from '@/features/dashboard/routes.tsx';
import { notFoundRoute } from '@/features/errors/routes.tsx';
import { routes as profileRoutes } from '@/features/profile/routes.tsx';

/** Screens reachable without a session. */
export const publicRoutes: RouteObject[] = [...authPublicRoutes];

/**
 * Screens inside the signed-in layout. A feature adds its screens by exporting `routes` and
 * listing them here; the 404 catch-all stays last.
 */
export const sessionRoutes: RouteObject[] = [...dashboardRoutes, ...profileRoutes, notFoundRoute];
