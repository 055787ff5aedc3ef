import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  approveRefund,
  b2cResult,
  b2cTimeout,
  cancelRefund,
  createRefund,
  exportRefunds,
  Id,
  listRefunds,
  refundPreview,
  resolveRefund,
  reversalResult,
  reversalTimeout,
  saveInitiator,
  statusResult,
  type Endpoint,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { fieldError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { readCallbackBodiesAsJson, requireWebhookSecret } from '../../http/webhook.ts';
import { csvRoute } from '../../http/csv.ts';
import * as refunds from './service.ts';
import type { RefundAnswerKind } from './answers.ts';

function refundId(request: FastifyRequest): number {
  const parsed = Id.safeParse((request.params as { id?: string }).id);
  if (!parsed.success) throw fieldError('id', refusalTexts.refundNoSuch);
  return parsed.data;
}

export function refundRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, createRefund, ({ actor, body, request }) => refunds.requestRefund(deps, actor, body, request.id));
  route(app, approveRefund, ({ actor, body, request }) => refunds.approveRefund(deps, actor, refundId(request), body.code, request.id));
  route(app, cancelRefund, ({ actor, request }) => refunds.cancelRefund(deps, actor, refundId(request), request.id));
  route(app, resolveRefund, ({ actor, body, request }) => refunds.resolveRefund(deps, actor, refundId(request), body, request.id));
  route(app, refundPreview, ({ query }) => refunds.previewRefund(deps, query.payment_id));
  route(app, listRefunds, ({ query }) => refunds.listRefunds(deps, query));
  csvRoute(app, exportRefunds, ({ query }) => refunds.refundsCsv(deps, query));
  route(app, saveInitiator, ({ actor, body, request }) => refunds.saveInitiator(deps, actor, body, request.id));

  // Daraja's result and time-out callbacks, behind the webhook secret; every body is acknowledged.
  void app.register(async (hooks) => {
    readCallbackBodiesAsJson(hooks);
    const hook = (endpoint: Endpoint, kind: RefundAnswerKind) =>
      route(hooks, endpoint, async ({ request, body }) => {
        requireWebhookSecret(request, deps.config.webhookSecret);
        await refunds.receiveRefundAnswer(deps, kind, body);
        return { ResultCode: 0, ResultDesc: 'Accepted' };
      }, { callback: true });
    hook(reversalResult, 'reversal-result');
    hook(reversalTimeout, 'reversal-timeout');
    hook(b2cResult, 'b2c-result');
    hook(b2cTimeout, 'b2c-timeout');
    hook(statusResult, 'status-result');
  });
}
