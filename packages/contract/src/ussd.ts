import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/**
 * The USSD menu (decision 022): Africa's Talking posts each step of a session form-encoded and shows
 * the plain-text answer, which starts `CON ` (wait for input) or `END ` (close the session).
 */

/** One step of a session; `text` is everything typed in the session, joined by `*` ('' at first). */
export const UssdStep = z.object({
  sessionId: z.string({ message: 'The session id is required' }).trim().min(1, 'The session id is required').max(200),
  serviceCode: z.string().max(50).optional(),
  phoneNumber: z.string({ message: 'The phone number is required' }).trim().min(1, 'The phone number is required').max(30),
  networkCode: z.string().max(20).optional(),
  text: z.string().max(1000).default(''),
});
export type UssdStep = z.infer<typeof UssdStep>;

/** A USSD screen as the phone shows it (text/plain). */
export const UssdScreen = z.string().regex(/^(CON|END) /);

export const ussdHook = endpoint({
  method: 'POST',
  path: '/api/hooks/ussd/:secret',
  tag: 'hooks',
  summary:
    "Africa's Talking USSD callback: one step of the menu (buy tips, my subscriptions, today's tips, stop/start SMS), answered text/plain `CON ...` or `END ...`",
  access: 'public',
  body: z.unknown(),
  response: UssdScreen,
});

/** Africa's Talking's end-of-session notification (form-encoded); every field as sent. */
export const UssdSessionEnd = z.object({
  sessionId: z.string({ message: 'The session id is required' }).trim().min(1, 'The session id is required').max(200),
  status: z.string().max(50).optional(),
  phoneNumber: z.string().max(30).optional(),
  serviceCode: z.string().max(50).optional(),
  networkCode: z.string().max(20).optional(),
  input: z.string().max(1000).optional(),
  durationInMillis: z.string().max(20).optional(),
  hopsCount: z.string().max(20).optional(),
  cost: z.string().max(50).optional(),
  errorMessage: z.string().max(1000).optional(),
  date: z.string().max(50).optional(),
});

export const ussdSessionEndHook = endpoint({
  method: 'POST',
  path: '/api/hooks/ussd/session-end/:secret',
  tag: 'hooks',
  summary: "Africa's Talking USSD end-of-session notification: acknowledged (200 `OK`)",
  access: 'public',
  body: z.unknown(),
  response: z.string(),
});
