import type { FastifyInstance } from 'fastify';
import { getCatalogue, storeBetCategory, storePlan, storePostCategory } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as catalogue from './service.ts';

export function catalogueRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, getCatalogue, () => catalogue.catalogue(deps.db));
  route(app, storeBetCategory, ({ actor, body, request }) => catalogue.storeBetCategory(deps, actor, body, request.id));
  route(app, storePostCategory, ({ actor, body, request }) => catalogue.storePostCategory(deps, actor, body, request.id));
  route(app, storePlan, ({ actor, body, request }) => catalogue.storePlan(deps, actor, body, request.id));
}
