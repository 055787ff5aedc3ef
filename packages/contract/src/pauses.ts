import { z } from 'zod';
import { Id, Notice } from './common.ts';
import { endpoint } from './endpoint.ts';

/*
 * A pause of a weekly or monthly tips subscription (decision 090): once per subscription, for up to
 * the `subscription_pause_max_days` setting, from now. Its end moves by the days paused, no tips go
 * out during it, and the due day of its automatic renewal moves with it.
 */

export const SubscriptionPause = z.object({
  id: z.number(),
  subscription_id: z.number(),
  days: z.number(),
  starts_at: z.string(),
  ends_at: z.string(),
  /** The subscription's end after the pause. */
  expires_at: z.string(),
  /** The standing order's due day after the pause (null: no live automatic renewal). */
  standing_order_next_date: z.string().nullable(),
});
export type SubscriptionPause = z.infer<typeof SubscriptionPause>;

export const PauseForm = z.object({
  subscription_id: Id,
  days: z.coerce.number({ message: 'Enter the number of days' }).int('Enter a whole number of days').min(1, 'Pause for at least 1 day'),
});
export type PauseForm = z.infer<typeof PauseForm>;

export const portalPause = endpoint({
  method: 'POST',
  path: '/api/portal/pause',
  tag: 'portal',
  summary:
    'Pause a running weekly or monthly subscription from now, once per subscription, for up to the set days: its end, and the due day of its automatic renewal, move by the days paused; no tips during the pause (409 when refused)',
  access: 'portal',
  body: PauseForm,
  response: Notice.extend({ pause: SubscriptionPause }),
});

/** Where a subscriber asked for a pause. */
export const PAUSE_CHANNELS = ['portal', 'ussd', 'sms'] as const;
export type PauseChannel = (typeof PAUSE_CHANNELS)[number];
