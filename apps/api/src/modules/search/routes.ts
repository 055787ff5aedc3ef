import type { FastifyInstance } from 'fastify';
import { search } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { searchAnything } from './service.ts';

export function searchRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, search, ({ actor, query }) => searchAnything(deps.db, actor, query.q));
}
