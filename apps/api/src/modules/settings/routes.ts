import type { FastifyInstance } from 'fastify';
import { listSettings, updateSetting } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as settings from './service.ts';

export function settingsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, listSettings, async () => ({ settings: await settings.listSettings(deps.db) }));
  route(app, updateSetting, ({ actor, body, request }) => settings.updateSetting(deps, actor, body, request.id));
}
