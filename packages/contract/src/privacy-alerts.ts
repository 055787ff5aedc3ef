import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/**
 * The admin dashboard's Data Protection warnings (decision 025), apart from privacy.ts so the
 * dashboard does not load the phone parser that the Privacy screen's forms need.
 */
export const privacyAlerts = endpoint({
  method: 'GET',
  path: '/api/privacy/alerts',
  tag: 'privacy',
  summary: "What the admin dashboard warns of: overdue requests and breaches whose 72 hours are running",
  access: 'manage:privacy',
  response: z.object({
    overdue_requests: z.number(),
    open_requests: z.number(),
    breaches: z.array(z.object({ id: z.number(), description: z.string(), discovered_at: z.string(), notify_by: z.string() })),
  }),
});
