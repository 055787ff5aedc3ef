import type { FastifyInstance } from 'fastify';
import { auditLog } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { readDeps } from '../../http/reads.ts';
import { route } from '../../http/route.ts';
import { readAuditLog } from './service.ts';

export function auditRoutes(app: FastifyInstance, deps: AppDeps): void {
  // The audit log reads where the request's read routing says (the replica, decision 073).
  route(app, auditLog, async ({ query, request }) => readAuditLog((await readDeps(deps, request)).db, query));
}
