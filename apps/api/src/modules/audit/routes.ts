import type { FastifyInstance } from 'fastify';
import { auditLog } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { readAuditLog } from './service.ts';

export function auditRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, auditLog, ({ query }) => readAuditLog(deps.db, query));
}
