import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Notice } from './common.ts';

export const WINNINGS_CONTENT_MAX = 200_000;

export const winnings = endpoint({
  method: 'GET',
  path: '/api/tips/winnings/update',
  tag: 'tips-winnings',
  summary: 'The Winnings & Results content (HTML)',
  access: 'manage:tips-content',
  response: z.object({ content: z.string() }),
});

export const updateWinnings = endpoint({
  method: 'POST',
  path: '/api/tips/winnings/update',
  tag: 'tips-winnings',
  summary: 'Save the Winnings & Results content; its HTML is sanitized (allow-list) before it is stored',
  access: 'manage:tips-content',
  body: z.object({
    content: z
      .string({ message: 'The content must be text' })
      .max(WINNINGS_CONTENT_MAX, 'The content is too long'),
  }),
  response: Notice,
});
