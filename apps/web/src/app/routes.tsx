import type { RouteObject } from 'react-router';
import { routes as auditRoutes } from '@/features/audit/routes.tsx';
import { publicRoutes as authPublicRoutes } from '@/features/auth/routes.tsx';
import { routes as betsRoutes } from '@/features/bets/routes.tsx';
import { routes as bonusesRoutes } from '@/features/bonuses/routes.tsx';
import { routes as clientsRoutes } from '@/features/clients/routes.tsx';
import { routes as dashboardRoutes } from '@/features/dashboard/routes.tsx';
import { notFoundRoute } from '@/features/errors/routes.tsx';
import { routes as mpesaRoutes } from '@/features/mpesa/routes.tsx';
import { routes as privacyRoutes } from '@/features/privacy/routes.tsx';
import { routes as exclusionRoutes } from '@/features/exclusions/routes.tsx';
import { routes as reportsRoutes } from '@/features/reports/routes.tsx';
import { routes as profileRoutes } from '@/features/profile/routes.tsx';
import { routes as subscriptionsRoutes } from '@/features/subscriptions/routes.tsx';
import { routes as usersRoutes } from '@/features/users/routes.tsx';
import { routes as settingsRoutes } from '@/features/settings/routes.tsx';
import { routes as backupRoutes } from '@/features/backups/routes.tsx';
import { routes as taxRoutes } from '@/features/tax/routes.tsx';
import { routes as refundsRoutes } from '@/features/refunds/routes.tsx';
import { routes as catalogueRoutes } from '@/features/catalogue/routes.tsx';
import { routes as promoCodesRoutes } from '@/features/promo-codes/routes.tsx';
import { routes as agentsRoutes } from '@/features/agents/routes.tsx';
import { routes as smsRoutes } from '@/features/sms/routes.tsx';
import { routes as tipsPostsRoutes } from '@/features/tips-posts/routes.tsx';
import { routes as tipsPricesRoutes } from '@/features/tips-prices/routes.tsx';
import { routes as tipsSmsRoutes } from '@/features/tips-sms/routes.tsx';
import { routes as tipsSubscribersRoutes } from '@/features/tips-subscribers/routes.tsx';
import { routes as tipsSubscriptionsRoutes } from '@/features/tips-subscriptions/routes.tsx';
import { routes as tipsDepositsRoutes } from '@/features/tips-deposits/routes.tsx';
import { routes as tipsWinningsRoutes } from '@/features/tips-winnings/routes.tsx';
import { routes as tipsRecordRoutes } from '@/features/tips-record/routes.tsx';

/** Screens reachable without a session. */
export const publicRoutes: RouteObject[] = [...authPublicRoutes];

/**
 * Screens inside the signed-in layout. A feature adds its screens by exporting `routes` and
 * listing them here; the 404 catch-all stays last.
 */
export const sessionRoutes: RouteObject[] = [
  ...dashboardRoutes,
  ...profileRoutes,
  ...clientsRoutes,
  ...betsRoutes,
  ...bonusesRoutes,
  ...subscriptionsRoutes,
  ...usersRoutes,
  ...tipsPostsRoutes,
  ...tipsSmsRoutes,
  ...tipsWinningsRoutes,
  ...tipsRecordRoutes,
  ...tipsSubscribersRoutes,
  ...tipsSubscriptionsRoutes,
  ...tipsPricesRoutes,
  ...smsRoutes,
  ...mpesaRoutes,
  ...tipsDepositsRoutes,
  ...settingsRoutes,
  ...backupRoutes,
  ...taxRoutes,
  ...refundsRoutes,
  ...catalogueRoutes,
  ...promoCodesRoutes,
  ...agentsRoutes,
  ...auditRoutes,
  ...reportsRoutes,
  ...privacyRoutes,
  ...exclusionRoutes,
  notFoundRoute,
];
