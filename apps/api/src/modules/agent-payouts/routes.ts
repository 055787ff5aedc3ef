/**
 * Agents' payouts (decision 093): make a month's, list them, approve one; Daraja's answers to
 * their B2C at the payouts' own ResultURLs, behind the webhook secret.
 * Lives in: apps/api/src/modules/agent-payouts/routes.ts
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  Id,
  agentPayoutList,
  agentPayoutTexts,
  approveAgentPayout,
  makeAgentPayouts,
  payoutB2cResult,
  payoutB2cTimeout,
  payoutStatusResult,
  type Endpoint,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { readCallbackBodiesAsJson, requireWebhookSecret } from '../../http/webhook.ts';
import * as payouts from './service.ts';

function payoutId(request: FastifyRequest): number {
  const parsed = Id.safeParse((request.params as { id?: string }).id);
  if (!parsed.success) throw notFound(agentPayoutTexts.notFound);
  return parsed.data;
}

export function agentPayoutRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, makeAgentPayouts, ({ actor, body, request }) => payouts.makePayouts(deps, actor, body.month, request.id));
  route(app, agentPayoutList, ({ query }) => payouts.listPayouts(deps, query));
  route(app, approveAgentPayout, ({ actor, body, request }) => payouts.approvePayout(deps, actor, payoutId(request), body.code, request.id));

  void app.register(async (hooks) => {
    readCallbackBodiesAsJson(hooks);
    const hook = (endpoint: Endpoint, kind: 'b2c-result' | 'b2c-timeout' | 'status-result') =>
      route(hooks, endpoint, async ({ request, body }) => {
        requireWebhookSecret(request, deps.config.webhookSecret);
        await payouts.receivePayoutAnswer(deps, kind, body);
        return { ResultCode: 0, ResultDesc: 'Accepted' };
      }, { callback: true });
    hook(payoutB2cResult, 'b2c-result');
    hook(payoutB2cTimeout, 'b2c-timeout');
    hook(payoutStatusResult, 'status-result');
  });
}
