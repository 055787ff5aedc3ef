import type { FastifyInstance } from 'fastify';
import {
  resendSms,
  resendSmsByCause,
  smsBacklog,
  smsDeliveryReport,
  smsEstimate,
  smsLog,
  smsMessage,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as backlog from './backlog.ts';
import { estimateSms } from './estimate.ts';
import * as sms from './service.ts';

export function smsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, smsLog, ({ query }) => sms.smsLogPage(deps.db, query));
  route(app, smsMessage, ({ query }) => sms.smsMessageDetail(deps.db, query.id));
  route(app, resendSms, ({ actor, body, request }) => sms.resendMessage(deps, actor, body.id, request.id));
  route(app, smsBacklog, () => backlog.smsBacklog(deps.db));
  route(app, resendSmsByCause, ({ actor, body, request }) => backlog.resendFailedByCause(deps, actor, body.cause, request.id));
  route(app, smsEstimate, ({ body }) => estimateSms(deps.db, body.text, body.recipients));
  route(app, smsDeliveryReport, async ({ body, request }) => {
    const { secret } = request.params as { secret: string };
    if (!sms.isWebhookSecret(deps, secret)) throw notFound();
    const { known, providerMessageId } = await sms.recordDeliveryReport(deps.db, body);
    if (!known) request.log.warn({ providerMessageId }, 'delivery report for an unknown SMS, acknowledged');
    return { message: 'Delivery report received' };
  }, { callback: true });
}
