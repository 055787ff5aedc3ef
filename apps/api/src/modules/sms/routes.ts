import type { FastifyInstance } from 'fastify';
import {
  resendSms,
  resendSmsByCause,
  smsBacklog,
  smsDeliveryReport,
  smsEstimate,
  smsLog,
  smsMessage,
  smsAdvantaDeliveryReport,
  smsProviders,
  smsCostReport,
  exportSmsCostReport,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { readDeps } from '../../http/reads.ts';
import { route } from '../../http/route.ts';
import * as backlog from './backlog.ts';
import { estimateSms } from './estimate.ts';
import * as sms from './service.ts';
import { csvRoute } from '../../http/csv.ts';
import { smsProvidersOf } from './circuit.ts';
import { providerStates, smsCostCsv, smsCostReport as costReport } from './providers.ts';
import { recordAdvantaReport } from './provider-reports.ts';
import { AdvantaDeliveryReport } from '@betdesk/contract';

export function smsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, smsLog, async ({ query, request }) => sms.smsLogPage((await readDeps(deps, request)).db, query));
  route(app, smsMessage, ({ query }) => sms.smsMessageDetail(deps.db, query.id));
  route(app, resendSms, ({ actor, body, request }) => sms.resendMessage(deps, actor, body.id, request.id));
  route(app, smsBacklog, () => backlog.smsBacklog(deps.db));
  route(app, resendSmsByCause, ({ actor, body, request }) => backlog.resendFailedByCause(deps, actor, body.cause, request.id));
  route(app, smsEstimate, ({ body }) => estimateSms(deps.db, body.text, body.recipients, smsProvidersOf(deps)));
  route(app, smsProviders, () => providerStates(deps.db, smsProvidersOf(deps)));
  route(app, smsCostReport, ({ query }) => costReport(deps.db, smsProvidersOf(deps), query.month));
  csvRoute(app, exportSmsCostReport, ({ query }) => smsCostCsv(deps.db, smsProvidersOf(deps), query.month));
  route(app, smsAdvantaDeliveryReport, async ({ body, request }) => {
    const { secret } = request.params as { secret: string };
    if (!sms.isWebhookSecret(deps, secret)) throw notFound();
    const report = AdvantaDeliveryReport.parse(body);
    const known = await recordAdvantaReport(deps.db, { messageId: report.messageid, description: report.description });
    if (!known) request.log.warn({ providerMessageId: report.messageid }, 'Advanta delivery report for an unknown SMS, acknowledged');
    return { message: 'Delivery report received' };
  }, { callback: true });
  route(app, smsDeliveryReport, async ({ body, request }) => {
    const { secret } = request.params as { secret: string };
    if (!sms.isWebhookSecret(deps, secret)) throw notFound();
    const { known, providerMessageId } = await sms.recordDeliveryReport(deps.db, body);
    if (!known) request.log.warn({ providerMessageId }, 'delivery report for an unknown SMS, acknowledged');
    return { message: 'Delivery report received' };
  }, { callback: true });
}
