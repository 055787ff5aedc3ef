import type { FastifyInstance } from 'fastify';
import { sendClientMessage } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as messages from './service.ts';

export function messageRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, sendClientMessage, ({ actor, body, request }) => messages.sendClientMessage(deps, actor, body, request.id));
}
