import type { FastifyInstance } from 'fastify';
import { updateWinnings, winnings } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as winningsPage from './service.ts';

export function tipsWinningsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, winnings, async () => ({ content: await winningsPage.winningsHtml(deps.db) }));
  route(app, updateWinnings, ({ actor, body, request }) =>
    winningsPage.saveWinnings(deps, actor, body.content, request.id),
  );
}
