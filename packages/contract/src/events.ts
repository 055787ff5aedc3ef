import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/**
 * What the live stream tells signed-in staff (GET /api/events, server-sent events). Each event is
 * sent only to those allowed to see it: payments and SMS to admins; a bet to admins and the staff
 * member the client is assigned to.
 */
export const LiveEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('payment.received'),
    payment_id: z.number(),
    amount: z.number(),
    sender_name: z.string().nullable(),
    account: z.string().nullable(),
    status: z.string(),
  }),
  z.object({ type: z.literal('payment.claimed'), payment_id: z.number(), status: z.string() }),
  z.object({ type: z.literal('sms.status'), status: z.string(), count: z.number() }),
  /** An SMS provider's circuit opened or closed (decision 062): the dashboard and the SMS screen show it. */
  z.object({ type: z.literal('sms.provider'), provider: z.string(), state: z.string(), reason: z.string().nullable() }),
  z.object({ type: z.literal('bet.opened'), bet_id: z.number(), client_id: z.number() }),
  z.object({ type: z.literal('bet.closed'), bet_id: z.number(), client_id: z.number() }),
]);
export type LiveEvent = z.infer<typeof LiveEvent>;
export type LiveEventType = LiveEvent['type'];

/** Sent on (re)connection: what was missed while disconnected is unknown, so screens refetch. */
export const LIVE_READY_EVENT = 'ready';

export const liveEvents = endpoint({
  method: 'GET',
  path: '/api/events',
  tag: 'events',
  summary:
    'Server-sent events (text/event-stream) of payments, SMS statuses and bets in the caller\'s scope. Authenticated by the Authorization header like every call: read it with fetch, not EventSource',
  access: 'watch:events',
  response: z.string(),
});

/** The admin's toast, e.g. 'Payment received: KES 500 from JOHN DOE (D2)'. */
export function paymentReceivedText(e: { amount: number; sender_name: string | null; account: string | null }): string {
  const amount = `KES ${e.amount.toLocaleString('en-KE', { maximumFractionDigits: 2 })}`;
  const from = e.sender_name ? ` from ${e.sender_name}` : '';
  const account = e.account ? ` (${e.account})` : '';
  return `Payment received: ${amount}${from}${account}`;
}
