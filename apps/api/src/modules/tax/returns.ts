import type { FastifyReply } from 'fastify';
import { centsToKes, nairobiDayOf, refusalTexts, taxTexts, type VatReturnLine } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { queryBatches, sendCsv } from '../../http/csv.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { sendXlsx } from '../../http/xlsx.ts';
import { pageOf } from '../../db/list.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import * as q from './queries.ts';
import { closedMonth, invoiceViewOf, monthRange, taxInvoicingOn, vatReturnSummary } from './invoices.ts';

/**
 * The VAT return (decision 068): the month's sales schedule in the column order of KRA's VAT3 sales
 * section, and its summary per rate. Amounts are integer cents until they are written out.
 */

const dayOf = (v: string | Date) => nairobiDayOf(new Date(v));
/** KRA's upload template writes dates as dd/mm/yyyy. */
const kraDate = (isoDay: string | null) => (isoDay ? `${isoDay.slice(8, 10)}/${isoDay.slice(5, 7)}/${isoDay.slice(0, 4)}` : '');
/** The trader's invoice number as it was sent to KRA (trdInvcNo in salesRequest). */
const traderNumber = (kind: 'invoice' | 'credit_note', branchId: string, number: number) => `${kind === 'invoice' ? 'INV' : 'CN'}-${branchId}-${number}`;
const cuNumber = (sdcId: string | null, receipt: number | null) => (sdcId && receipt != null ? `${sdcId}/${receipt}` : null);

/** One schedule line in cents: a credit note negative, taxable = the VAT-inclusive amount less its VAT. */
function lineOf(r: q.VatReturnRow) {
  const sign = r.kind === 'invoice' ? 1 : -1;
  const amount = sign * Number(r.amount_cents);
  const vat = sign * Number(r.tax_cents);
  const credit = r.kind === 'credit_note';
  return {
    rate: r.tax_type,
    // The PIN and name the document carried to KRA (decision 074); blank for a buyer without one, as KRA's template allows.
    buyer_pin: r.buyer_pin,
    buyer_name: r.buyer_name,
    cu_invoice_number: cuNumber(r.kra_sdc_id, r.kra_receipt_number),
    invoice_date: dayOf(r.created_at),
    invoice_number: traderNumber(r.kind, r.branch_id, r.number),
    description: r.item_name,
    taxableCents: amount - vat,
    vatCents: vat,
    relevant_invoice_number:
      credit && r.original_number != null
        ? (cuNumber(r.original_sdc_id, r.original_receipt_number) ?? traderNumber('invoice', r.original_branch_id!, r.original_number))
        : null,
    relevant_invoice_date: credit && r.original_created_at ? dayOf(r.original_created_at) : null,
    kind: r.kind,
    status: r.status,
    tax_point: dayOf(r.tax_point),
    invoice_id: Number(r.id),
  };
}
type Line = ReturnType<typeof lineOf>;

const wireLine = ({ taxableCents, vatCents, ...l }: Line): VatReturnLine => ({ ...l, taxable: centsToKes(taxableCents), vat: centsToKes(vatCents) });

/**
 * A closed month's summary is the one kept at its close (decision 075); its lines are read from the
 * rows, which the tax point keeps the same: what is written later for the month posts in the open month.
 */
export async function vatReturn(deps: AppDeps, query: { month: string; page: number; perPage: number }) {
  const range = monthRange(query.month);
  const closed = await closedMonth(deps.db, query.month);
  const [live, page] = await Promise.all([
    closed ? null : vatReturnSummary(deps.db, query.month),
    q.vatReturnPage(deps.db, range, pageOf(query), closed?.closed.month),
  ]);
  const summary = closed ? (closed.snapshot.summary as NonNullable<typeof live>) : live!;
  return {
    month: query.month,
    closed: closed?.closed ?? null,
    summary,
    lines: page.map((r) => wireLine(lineOf(r))),
    total_lines: summary.reduce((n, s) => n + s.count, 0),
  };
}

/** KRA's VAT3 sales-section columns, in its order (docs/INTEGRATIONS.md, "The VAT return"). */
const KRA_COLUMNS: { header: string; value: (l: Line) => string | number | null }[] = [
  { header: 'PIN of Purchaser', value: (l) => l.buyer_pin },
  { header: 'Name of Purchaser', value: (l) => l.buyer_name },
  { header: 'ETR Serial Number', value: (l) => l.cu_invoice_number },
  { header: 'Invoice Date', value: (l) => kraDate(l.invoice_date) },
  { header: 'Invoice Number', value: (l) => l.invoice_number },
  { header: 'Description of Goods / Services', value: (l) => l.description },
  { header: 'Taxable Value (Ksh)', value: (l) => (l.taxableCents / 100).toFixed(2) },
  { header: 'Amount of VAT (Ksh)', value: (l) => (l.vatCents / 100).toFixed(2) },
  { header: 'Relevant Invoice Number', value: (l) => l.relevant_invoice_number },
  { header: 'Relevant Invoice Date', value: (l) => kraDate(l.relevant_invoice_date) },
];
/** After KRA's columns, for the accountant's own filter; an upload keeps the first ten. */
const EXTRA_COLUMNS: typeof KRA_COLUMNS = [
  { header: 'Tax type', value: (l) => l.rate },
  { header: 'KRA status', value: (l) => l.status },
];

/**
 * The return as a download: the whole schedule streamed from the database (CSV or xlsx). A closed
 * month's (decision 079) is its lines written by its close and the summary kept at it.
 */
export async function sendVatReturn(deps: AppDeps, reply: FastifyReply, month: string, format: 'csv' | 'xlsx'): Promise<FastifyReply> {
  const range = monthRange(month);
  const closed = await closedMonth(deps.db, month);
  const lines = () => queryBatches(deps.database, q.vatReturnSql(range, null, closed?.closed.month), lineOf);
  if (format === 'csv') {
    return sendCsv(reply, { filename: `vat-return-${month}`, columns: [...KRA_COLUMNS, ...EXTRA_COLUMNS], rows: lines() });
  }
  // The summary first: a failing read is answered as an error before the download starts.
  const summary = closed ? closed.snapshot.summary : await vatReturnSummary(deps.db, month);
  return sendXlsx(reply, `vat-return-${month}`, async (workbook) => {
    const head = workbook.addWorksheet('Summary');
    head.addRow(['Tax type', 'Documents', 'Taxable Value (Ksh)', 'Amount of VAT (Ksh)', 'Total (Ksh)']).commit();
    for (const t of summary) head.addRow([t.rate, t.count, t.taxable, t.vat, t.total]).commit();
    head.commit();
    // One sheet per rate, in KRA's columns; the rows come ordered by rate, a batch at a time.
    let sheet: ReturnType<typeof workbook.addWorksheet> | null = null;
    let rate: string | null = null;
    for await (const batch of lines()) {
      for (const l of batch) {
        if (l.rate !== rate) {
          sheet?.commit();
          rate = l.rate;
          sheet = workbook.addWorksheet(`Rate ${l.rate}`);
          sheet.addRow(KRA_COLUMNS.map((c) => c.header)).commit();
        }
        sheet!
          .addRow(KRA_COLUMNS.map((c, i) => (i === 6 ? l.taxableCents / 100 : i === 7 ? l.vatCents / 100 : c.value(l))))
          .commit();
      }
    }
    sheet?.commit();
  });
}

// ---- Transmissions ----------------------------------------------------------------------------

export async function transmissions(deps: AppDeps, query: { status?: q.TransmissionStatus | undefined; page: number; perPage: number }) {
  const hours = await getSetting(deps.db, 'tax_transmission_alert_hours');
  const [page, counts] = await Promise.all([q.transmissionsPage(deps.db, query.status, pageOf(query)), q.transmissionCounts(deps.db, hours)]);
  return {
    transmissions: page.map((r) => ({
      invoice_id: Number(r.id),
      kind: r.kind,
      number: r.number,
      status: r.status,
      amount: centsToKes(Number(r.amount_cents)),
      time: new Date(r.created_at).toISOString(),
      age_hours: Math.floor(Number(r.age_seconds) / 36) / 100,
      attempts: r.attempts,
      reason: r.reason,
      next_attempt_at: r.next_attempt_at == null ? null : new Date(r.next_attempt_at).toISOString(),
    })),
    total_records: query.status ? counts.counts[query.status] : counts.counts.queued + counts.counts.retrying + counts.counts.rejected,
    counts: counts.counts,
    older_than_alert: counts.old,
    alert_hours: hours,
  };
}

/**
 * Sends a document again now (admin). Idempotent: a rejected one is queued from its first attempt; a
 * queued one only has its next send brought forward (the job's lease keeps two sends apart); one KRA
 * holds is left as it is. Each call nudges the sending job.
 */
export async function retryInvoice(deps: AppDeps, actor: Actor, id: number, requestId: string) {
  const { info, row } = await deps.db.transaction(async (tx) => {
    const before = await q.lockInvoice(tx, id);
    if (!before) throw notFound(refusalTexts.invoiceNotFound);
    if (before.status === 'sent') return { info: taxTexts.alreadyAccepted, row: (await q.invoiceById(tx, id))! };
    if (!(await taxInvoicingOn(tx))) throw conflict(taxTexts.retryWhileOff, 'invoicing_off');
    if (before.status === 'queued') await q.sendNow(tx, id);
    else await q.requeueInvoice(tx, id, 'queued');
    await audit(tx, 'tax.retry', id, byStaff(actor, requestId), { before: { status: before.status, reason: before.reason }, after: { status: 'queued' } });
    return { info: taxTexts.retried, row: (await q.invoiceById(tx, id))! };
  });
  if (row.status === 'queued') await deps.jobs.nudge(QUEUES.taxInvoices);
  return { info, invoice: invoiceViewOf(row) };
}
