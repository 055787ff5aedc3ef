import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/**
 * Readiness for a load balancer (decision 023): 200 when the database answers and holds every
 * migration this code knows; 503 otherwise and while the process drains after SIGTERM.
 * GET /api/health stays the liveness check.
 */
export const ready = endpoint({
  method: 'GET',
  path: '/api/ready',
  tag: 'system',
  summary: 'Readiness: 200 when the database is reachable and migrated, 503 while draining or not ready',
  access: 'public',
  response: z.object({ status: z.enum(['ready', 'not_ready', 'draining']), reason: z.string().optional() }),
});
