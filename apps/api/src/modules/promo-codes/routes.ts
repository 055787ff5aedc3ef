/**
 * The promo code routes (decision 077): the admin's codes and the promotion report.
 * Lives in: apps/api/src/modules/promo-codes/routes.ts
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Id, createPromoCode, exportPromotionReport, promoCodeList, promotionReport, updatePromoCode, promoCodeTexts } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as promo from './service.ts';

function codeId(request: FastifyRequest): number {
  const parsed = Id.safeParse((request.params as { id?: string }).id);
  if (!parsed.success) throw notFound(promoCodeTexts.notFound);
  return parsed.data;
}

export function promoCodeRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, promoCodeList, ({ query }) => promo.codePage(deps.db, query));
  route(app, createPromoCode, ({ actor, body, request }) => promo.createCode(deps, actor, body, request.id));
  route(app, updatePromoCode, ({ actor, body, request }) => promo.updateCode(deps, actor, codeId(request), body, request.id));
  route(app, promotionReport, ({ query }) => promo.promotionReport(deps.db, query));
  csvRoute(app, exportPromotionReport, ({ query }) => promo.promotionReportCsv(deps.db, query));
}
