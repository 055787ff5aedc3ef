import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Kes } from './common.ts';

/** How many payments and days the dashboard shows. */
export const RECENT_PAYMENTS_SHOWN = 10;
export const INCOME_CHART_DAYS = 30;
/** Active clients on the dashboard: those with the newest subscriptions; the full list is /clients/active. */
export const DASHBOARD_ACTIVE_CLIENTS = 10;

export const RecentPayment = z.object({
  name: z.string(),
  phone: z.string().nullable(),
  /** M-Pesa's masked number when no phone is known, as /mpesa shows it (decision 008). */
  sender_msisdn: z.string().nullable(),
  transaction_reference: z.string(),
  time: z.string(),
  amount: Kes,
});

export const ActiveClient = z.object({
  client_id: z.number(),
  name: z.string(),
  phone: z.string(),
  photo: z.string().nullable(),
  total_open_bets: z.number(),
});

/** Spec section 3 payload. Staff: counts of their own clients; income and SMS balance absent. */
export const dashboard = endpoint({
  method: 'GET',
  path: '/api/dashboard',
  tag: 'dashboard',
  summary: `Figures, counts, recent payments and the ${DASHBOARD_ACTIVE_CLIENTS} active clients with the newest subscriptions`,
  access: 'view:dashboard',
  response: z.object({
    total_income_today: Kes.optional(),
    total_income: Kes.optional(),
    sms_balance: Kes.nullable().optional(),
    total_active_clients: z.number(),
    total_open_bets: z.number(),
    total_pending_bonus: z.number(),
    recent_payments: z.array(RecentPayment),
    active_clients: z.array(ActiveClient),
  }),
});

/** Beyond the spec: the admin's income chart, M-Pesa income per Nairobi day. */
export const dashboardIncome = endpoint({
  method: 'GET',
  path: '/api/dashboard/income',
  tag: 'dashboard',
  summary: `M-Pesa income per day over the last ${INCOME_CHART_DAYS} days (admin)`,
  access: 'view:dashboard-income',
  response: z.object({ days: z.array(z.object({ day: z.string(), amount: Kes })) }),
});
