import type { FastifyInstance } from 'fastify';
import {
  clearOptOut,
  clientOptOut,
  inboundSmsHook,
  optOutPerson,
  smsInbox,
  smsOptOutHook,
  smsSelfServiceTexts,
  subscriberOptOut,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { isWebhookSecret } from '../sms/service.ts';
import * as selfService from './service.ts';

export function selfServiceRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, inboundSmsHook, async ({ body, request }) => {
    const { secret } = request.params as { secret: string };
    if (!isWebhookSecret(deps, secret)) throw notFound();
    await selfService.receiveInboundSms(deps, body, request.id);
    return { message: smsSelfServiceTexts.inboundReceived };
  });
  route(app, smsOptOutHook, async ({ body, request }) => {
    const { secret } = request.params as { secret: string };
    if (!isWebhookSecret(deps, secret)) throw notFound();
    await selfService.receiveOptOutNotice(deps, body);
    return { message: smsSelfServiceTexts.optOutReceived };
  });
  route(app, smsInbox, ({ query }) => selfService.inbox(deps.db, query));
  route(app, subscriberOptOut, ({ query }) => selfService.subscriberOptOutState(deps.db, query.subscriber_id));
  route(app, clientOptOut, ({ actor, query }) => selfService.clientOptOutState(deps.db, actor, query.client_id));
  route(app, optOutPerson, ({ actor, body, request }) => selfService.optOutByAdmin(deps, actor, body, request.id));
  route(app, clearOptOut, ({ actor, body, request }) => selfService.clearOptOutByAdmin(deps, actor, body, request.id));
}
