import { z } from 'zod';
import { Id, Notice } from './common.ts';
import { endpoint } from './endpoint.ts';
import { providerBody } from './text.ts';

/*
 * Automatic renewal by M-Pesa Ratiba (decision 042): a standing order the subscriber
 * approves once with their PIN; its payments arrive as ordinary paybill confirmations. Off unless
 * the `mpesa_ratiba_enabled` setting is on (Safaricom enables Ratiba per paybill).
 */

/** Ratiba's frequencies Betdesk offers: a package of 1, 7 or 30/31 days. */
export const AUTO_RENEW_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type AutoRenewFrequency = (typeof AUTO_RENEW_FREQUENCIES)[number];

/**
 * requested: waiting to be sent to M-Pesa (a USSD session must end first); pending: sent, waiting
 * for the subscriber's PIN; active: approved; declined: the subscriber (or M-Pesa) said no;
 * stopped: stopped in Betdesk; failed: M-Pesa refused to create it.
 */
export const STANDING_ORDER_STATUSES = ['requested', 'pending', 'active', 'declined', 'stopped', 'failed'] as const;
export type StandingOrderStatus = (typeof STANDING_ORDER_STATUSES)[number];

export const StandingOrder = z.object({
  id: z.number(),
  status: z.enum(STANDING_ORDER_STATUSES),
  /** The Nairobi day (YYYY-MM-DD) the next payment is due. */
  next_date: z.string(),
  /** KES. */
  amount: z.number(),
  frequency: z.enum(AUTO_RENEW_FREQUENCIES),
  /** The Nairobi day (YYYY-MM-DD) of its last payment: Ratiba needs an end, a year after the start. */
  end_date: z.string(),
});
export type StandingOrder = z.infer<typeof StandingOrder>;

/** A standing order as the back office shows it on the subscriber's page. */
export const StandingOrderRow = StandingOrder.extend({
  package: z.string(),
  account_reference: z.string(),
  /** Why it was declined or failed, in M-Pesa's words. */
  result_desc: z.string().nullable(),
  /** The last due day on which no payment came (the subscriber was told once how to pay by hand). */
  missed_date: z.string().nullable(),
  created_at: z.string(),
  stopped_at: z.string().nullable(),
});
export type StandingOrderRow = z.infer<typeof StandingOrderRow>;

export const portalAutoRenew = endpoint({
  method: 'POST',
  path: '/api/portal/auto-renew',
  tag: 'portal',
  summary:
    'Turn on automatic renewal (M-Pesa Ratiba) of a daily, weekly or monthly package: a standing order for its price from when the subscription ends, approved once with the M-Pesa PIN (404 when Ratiba is off)',
  access: 'portal',
  body: z.object({ subscription_id: Id }),
  response: z.object({ standing_order: StandingOrder }),
});

export const portalStopAutoRenew = endpoint({
  method: 'DELETE',
  path: '/api/portal/auto-renew/:id',
  tag: 'portal',
  summary: 'Stop automatic renewal in one step, confirmed by SMS (404 when Ratiba is off or the standing order is not this phone’s)',
  access: 'portal',
  response: Notice.extend({ standing_order: StandingOrder }),
});

export const subscriberAutoRenewals = endpoint({
  method: 'GET',
  path: '/api/tips/subscribers/auto-renewals',
  tag: 'tips-subscribers',
  summary: "A subscriber's standing orders (automatic renewal by M-Pesa Ratiba), newest first (404 when Ratiba is off)",
  access: 'manage:tips-subscribers',
  query: z.object({ subscriber_id: Id }),
  response: z.object({ standing_orders: z.array(StandingOrderRow) }),
});

export const stopSubscriberAutoRenewal = endpoint({
  method: 'POST',
  path: '/api/tips/subscribers/auto-renewals/stop',
  tag: 'tips-subscribers',
  summary: "Stop a subscriber's automatic renewal; the subscriber is told by SMS; audited (404 when Ratiba is off)",
  access: 'manage:tips-subscribers',
  body: z.object({ standing_order_id: Id }),
  response: Notice.extend({ standing_order: StandingOrderRow }),
});

export const ratibaCallback = endpoint({
  method: 'POST',
  path: '/api/hooks/ratiba/:secret',
  tag: 'hooks',
  summary: "Daraja's M-Pesa Ratiba callback: the subscriber approved or declined the standing order (a repeat changes nothing)",
  access: 'public',
  body: providerBody(),
  response: z.object({ ResultCode: z.number(), ResultDesc: z.string() }),
});
