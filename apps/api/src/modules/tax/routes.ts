import type { FastifyInstance } from 'fastify';
import {
  exportTaxInvoices,
  initialiseTaxDevice,
  resendTaxInvoice,
  saveTaxSettings,
  showTaxInvoice,
  taxCheck,
  taxInvoices,
  taxSettings,
  taxStatus,
  taxSummary,
  refusalTexts,
  retryTaxInvoice,
  taxTransmissions,
  vatReturn,
  reissueTaxInvoice,
  taxInvoiceDocument,
  sendTaxInvoiceLink,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { csvRoute } from '../../http/csv.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as returns from './returns.ts';
import * as identity from './identity.ts';
import * as documents from './document.ts';
import { sendInvoiceLink } from './invoice-link.ts';
import * as tax from './service.ts';

/** A client's or subscriber's id from the path (a bad one is "not found", as the other reads say). */
const idOf = (params: unknown): number => {
  const id = Number((params as { id?: string }).id);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound(refusalTexts.invoiceNotFound);
  return id;
};

export function taxRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, taxSettings, () => tax.taxSettings(deps));
  route(app, saveTaxSettings, ({ actor, body, request }) => tax.saveTaxSettings(deps, actor, body, request.id));
  route(app, initialiseTaxDevice, ({ actor, request }) => tax.initialiseDevice(deps, actor, request.id));
  csvRoute(app, exportTaxInvoices, async ({ query }) => tax.invoicesCsv(deps, query));
  route(app, taxInvoices, ({ query }) => tax.invoicesPage(deps, query));
  route(app, showTaxInvoice, ({ request }) => tax.invoiceDetail(deps, idOf(request.params)));
  route(app, resendTaxInvoice, ({ actor, request }) => tax.resendInvoice(deps, actor, idOf(request.params), request.id));
  route(app, vatReturn, async ({ query, reply }) => {
    if (query.format !== 'json') return returns.sendVatReturn(deps, reply, query.month, query.format) as never;
    return returns.vatReturn(deps, query);
  });
  route(app, taxTransmissions, ({ query }) => returns.transmissions(deps, query));
  route(app, retryTaxInvoice, ({ actor, request }) => returns.retryInvoice(deps, actor, idOf(request.params), request.id));
  route(app, reissueTaxInvoice, ({ actor, request }) => identity.reissueInvoice(deps, actor, idOf(request.params), request.id));
  route(app, taxInvoiceDocument, async ({ actor, query, reply, request }) => {
    const id = idOf(request.params);
    if (!(await documents.staffMayRead(deps.db, actor, id))) throw notFound(refusalTexts.invoiceNotFound);
    return documents.sendInvoicePdf(reply, await documents.invoicePdf(deps, id, { size: query.size, lang: query.lang })) as never;
  });
  route(app, sendTaxInvoiceLink, ({ actor, request }) => sendInvoiceLink(deps, actor, idOf(request.params), request.id));
  route(app, taxSummary, ({ query }) => tax.monthSummary(deps, query.month));
  route(app, taxStatus, () => tax.taxStatus(deps));
  route(app, taxCheck, ({ query }) => tax.dayCheck(deps, query.date));
}
