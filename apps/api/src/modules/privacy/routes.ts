import type { FastifyInstance } from 'fastify';
import {
  addPrivacyRequest,
  completePrivacyRequest,
  dataBreaches,
  marketingConsent,
  notifyDataBreach,
  privacyAlerts,
  privacyErase,
  privacyRequests,
  privacySubject,
  recordDataBreach,
  recordMarketingConsent,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as privacy from './service.ts';

export function privacyRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, privacySubject, async ({ actor, query, request, reply }) => {
    const subject = await privacy.subjectOf(deps, actor, query.phone, request.id);
    if (query.download === '1') {
      void reply.header('content-disposition', `attachment; filename="betdesk-data-${query.phone}.json"`);
    }
    return subject;
  });
  route(app, privacyErase, ({ actor, body, request }) => privacy.erasePerson(deps, actor, body, request.id));
  route(app, privacyRequests, ({ query }) => privacy.requestPage(deps.db, query));
  route(app, addPrivacyRequest, ({ actor, body, request }) => privacy.addRequest(deps, actor, body, request.id));
  route(app, completePrivacyRequest, ({ actor, body, request }) => privacy.completeRequest(deps, actor, body, request.id));
  route(app, marketingConsent, ({ query }) => privacy.consentOf(deps.db, query.phone));
  route(app, recordMarketingConsent, ({ actor, body, request }) => privacy.recordConsentByStaff(deps, actor, body, request.id));
  route(app, dataBreaches, ({ query }) => privacy.breachPage(deps.db, query));
  route(app, recordDataBreach, ({ actor, body, request }) => privacy.recordBreach(deps, actor, body, request.id));
  route(app, notifyDataBreach, ({ actor, body, request }) => privacy.markBreachNotified(deps, actor, body, request.id));
  route(app, privacyAlerts, () => privacy.privacyAlerts(deps.db));
}
