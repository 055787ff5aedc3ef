import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ComplianceKey, complianceCalendar, complianceTexts, updateComplianceItem } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as compliance from './service.ts';

function itemKey(request: FastifyRequest): string {
  const parsed = ComplianceKey.safeParse((request.params as { key?: string }).key);
  if (!parsed.success) throw notFound(complianceTexts.noSuchItem);
  return parsed.data;
}

export function complianceRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, complianceCalendar, () => compliance.complianceCalendar(deps));
  route(app, updateComplianceItem, ({ actor, body, request }) => compliance.updateComplianceItem(deps, actor, itemKey(request), body, request.id));
}
