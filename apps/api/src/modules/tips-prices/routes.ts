import type { FastifyInstance } from 'fastify';
import { packageTrials, saveTrial, smsTipsPrices, storePackage, updatePrice, webTipsPrices } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as prices from './service.ts';

export function tipsPricesRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, webTipsPrices, async () => ({ packages: await prices.packagesOf(deps.db, 'web') }));
  route(app, smsTipsPrices, async () => ({ packages: await prices.packagesOf(deps.db, 'sms') }));
  route(app, storePackage, ({ actor, body, request }) => prices.addPackage(deps, actor, body, request.id));
  route(app, updatePrice, ({ actor, body, request }) => prices.updatePackage(deps, actor, body, request.id));
  route(app, packageTrials, () => prices.packageTrials(deps.db));
  route(app, saveTrial, ({ actor, body, request }) => prices.saveTrial(deps, actor, body, request.id));
}
