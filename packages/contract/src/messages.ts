import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Id, Notice } from './common.ts';

export const MESSAGE_MAX = 800;

/** Send Message modal on a client's page: the message goes to the client's phone on file. */
export const ClientMessage = z.object({
  id: Id,
  name: z.string().optional(),
  phone: z.string().optional(),
  message: z
    .string({ message: 'The message is required' })
    .trim()
    .min(1, 'The message is required')
    .max(MESSAGE_MAX, `The message may not be longer than ${MESSAGE_MAX} characters`),
});
export type ClientMessage = z.input<typeof ClientMessage>;

export const sendClientMessage = endpoint({
  method: 'POST',
  path: '/api/messages',
  tag: 'messages',
  summary: 'Send an SMS to a client (queued in the outbox)',
  access: 'manage:clients',
  body: ClientMessage,
  response: Notice,
});
