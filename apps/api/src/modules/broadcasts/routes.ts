import type { FastifyInstance } from 'fastify';
import { broadcastList, previewBroadcast, sendBroadcast } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as broadcasts from './service.ts';

export function broadcastRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, previewBroadcast, ({ body }) => broadcasts.previewBroadcast(deps, body));
  route(app, sendBroadcast, ({ actor, body, request }) => broadcasts.sendBroadcast(deps, actor, body, request.id));
  route(app, broadcastList, ({ query }) => broadcasts.broadcastPage(deps.db, query));
}
