import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ratibaCallback, stopSubscriberAutoRenewal, subscriberAutoRenewals } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as autoRenew from './service.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The back office's view of a subscriber's automatic renewal, and Ratiba's callback. */
export function autoRenewRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, subscriberAutoRenewals, ({ query }) => autoRenew.ordersOfSubscriber(deps, query.subscriber_id));
  route(app, stopSubscriberAutoRenewal, ({ actor, body, request }) => autoRenew.stopByStaff(deps, actor.userId, body.standing_order_id, request.id));

  // Ratiba's approval callback, behind the webhook secret; every body is acknowledged.
  void app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(String(body) || '{}'));
      } catch {
        done(null, {});
      }
    });
    route(hooks, ratibaCallback, async ({ request, body }) => {
      const given = (request.params as { secret?: string }).secret ?? '';
      if (!timingSafeEqual(digest(given), digest(deps.config.webhookSecret))) throw notFound();
      await autoRenew.receiveRatibaCallback(deps, body, request.id);
      return { ResultCode: 0, ResultDesc: 'Accepted' };
    });
  });
}
