import type { FastifyInstance } from 'fastify';
import { estimateSmsTips, saveSmsTips, smsTipsForm, viewSmsTips } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as smsTips from './service.ts';

export function tipsSmsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, smsTipsForm, async () => ({ posts: await smsTips.smsTipsForEditing(deps.db) }));
  route(app, saveSmsTips, ({ actor, body, request }) => smsTips.saveSmsTips(deps, actor, body, request.id));
  route(app, estimateSmsTips, ({ body }) => smsTips.estimateSmsTips(deps.db, body));
  route(app, viewSmsTips, async () => ({ posts: await smsTips.smsTipsWithDelivery(deps.db) }));
}
