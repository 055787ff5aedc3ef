import type { FastifyInstance } from 'fastify';
import { ratibaCallback, stopSubscriberAutoRenewal, subscriberAutoRenewals } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { readCallbackBodiesAsJson, requireWebhookSecret } from '../../http/webhook.ts';
import * as autoRenew from './service.ts';

/** The back office's view of a subscriber's automatic renewal, and Ratiba's callback. */
export function autoRenewRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, subscriberAutoRenewals, ({ query }) => autoRenew.ordersOfSubscriber(deps, query.subscriber_id));
  route(app, stopSubscriberAutoRenewal, ({ actor, body, request }) => autoRenew.stopByStaff(deps, actor.userId, body.standing_order_id, request.id));

  // Ratiba's approval callback, behind the webhook secret; every body is acknowledged.
  void app.register(async (hooks) => {
    readCallbackBodiesAsJson(hooks);
    route(hooks, ratibaCallback, async ({ request, body }) => {
      requireWebhookSecret(request, deps.config.webhookSecret);
      await autoRenew.receiveRatibaCallback(deps, body, request.id);
      return { ResultCode: 0, ResultDesc: 'Accepted' };
    }, { callback: true });
  });
}
