import { centsToKes, kesFixed, nairobiDayOf, taxTexts, type BooksClosed, type InvoiceRef, type RefundReason, type TaxSettings, refusalTexts } from '@betdesk/contract';
import type { BooksSnapshot, CREDIT_NOTE_CAUSES, TAX_TYPES } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { Rider } from '../../db/riders.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { decryptSecret, encryptSecret } from '../../lib/crypto.ts';
import { callOscu, OSCU_RESULT, OscuUnreachable, oscuDateTime, verificationUrl, type OscuDevice } from '../../integrations/etims/oscu.ts';
import { sharedFakeOscu } from '../../integrations/etims/fake-oscu.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { queryBatches, type CsvTable } from '../../http/csv.ts';
import { audit, byStaff } from '../audit/service.ts';
import { discountOfSale } from '../promo-codes/service.ts';
import { getSetting } from '../settings/service.ts';
import * as q from './queries.ts';

export type TaxType = (typeof TAX_TYPES)[number];
/** KRA's rates per tax type, in percent. */
export const TAX_RATES: Record<TaxType, number> = { A: 0, B: 16, C: 0, D: 0, E: 8 };

/**
 * The tax inside a VAT-inclusive price, in cents: price × rate / (100 + rate), rounded half up to
 * the cent (the interface's amounts have two decimals). Integer arithmetic: no float drift.
 */
export function inclusiveTaxCents(amountCents: number, taxType: TaxType): number {
  const rate = TAX_RATES[taxType];
  if (rate === 0) return 0;
  const sign = amountCents < 0 ? -1 : 1;
  const a = Math.abs(amountCents) * rate;
  const b = 100 + rate;
  return sign * Math.floor((2 * a + b) / (2 * b));
}

/** A VAT-registered business sells under B (16 %); one that is not, under D (non-VAT). */
export const taxTypeOf = (device: { vatRegistered: boolean } | null): TaxType => (device?.vatRegistered ? 'B' : 'D');

/** Whether sales are sent to KRA; q.insertDeviceInvoice tests the same in SQL (keep the two alike). */
export const invoicingOn = (device: q.TaxDeviceRow | null): boolean => Boolean(device?.initialisedAt && device.cmcKeySealed && device.tin);

/** What the product sells, as eTIMS items: services (type 3), counted in units (NT / U). */
function itemOf(what: { packageId: number } | { planId: number }, name: string) {
  const seq = 'packageId' in what ? `1${String(what.packageId).padStart(6, '0')}` : `2${String(what.planId).padStart(6, '0')}`;
  return { code: `KE3NTU${seq}`, name };
}
/**
 * The item classification eTIMS files the product's services under. Tips and Bet4Me plans are
 * information services; the code is the one KRA's classification list (selectItemClsList) gives
 * for them. docs/INTEGRATIONS.md says how to confirm it for a business.
 */
const ITEM_CLASS_CODE = '81111800';

// ---- Settings and the device -----------------------------------------------------------------

async function baseUrlOf(deps: AppDeps, device: q.TaxDeviceRow | null): Promise<string> {
  if (device?.baseUrl) return device.baseUrl;
  if (deps.config.etims.fake) return (await sharedFakeOscu()).baseUrl;
  return deps.config.etims.baseUrl;
}

async function settingsView(deps: AppDeps, device: q.TaxDeviceRow | null) {
  return {
    tin: device?.tin ?? null,
    branch_id: device?.branchId ?? '00',
    device_serial: device?.deviceSerial ?? null,
    vat_registered: device?.vatRegistered ?? false,
    base_url: await baseUrlOf(deps, device),
    initialised: Boolean(device?.cmcKeySealed),
    invoicing_on: invoicingOn(device),
  };
}

export async function taxSettings(deps: AppDeps) {
  return settingsView(deps, await q.deviceOf(deps.db));
}

/**
 * Saves the device settings. A different PIN, branch or serial is a different device: its key is
 * dropped and invoicing waits for a new initialisation (sales meanwhile are "awaiting").
 */
export async function saveTaxSettings(deps: AppDeps, actor: Actor, body: TaxSettings, requestId: string) {
  const saved = await deps.db.transaction(async (tx) => {
    const before = await q.deviceOf(tx);
    const sameDevice = before && before.tin === body.tin && before.branchId === body.branch_id && before.deviceSerial === body.device_serial;
    const values = {
      tin: body.tin,
      branchId: body.branch_id,
      deviceSerial: body.device_serial,
      vatRegistered: body.vat_registered,
      baseUrl: body.base_url ?? null,
      updatedBy: actor.userId,
      updatedAt: new Date(),
      ...(sameDevice ? {} : { cmcKeySealed: null, sdcId: null, mrcNo: null, initialisedAt: null }),
    };
    const row = await q.saveDevice(tx, values);
    await audit(tx, 'tax.settings', 1, byStaff(actor, requestId), {
      before: before && { tin: before.tin, branch_id: before.branchId, device_serial: before.deviceSerial, vat_registered: before.vatRegistered, base_url: before.baseUrl },
      after: { ...body, key_dropped: !sameDevice && Boolean(before?.cmcKeySealed) },
    });
    return row;
  });
  return { info: taxTexts.saved, settings: await settingsView(deps, saved) };
}

export async function oscuDeviceOf(deps: AppDeps, device: q.TaxDeviceRow): Promise<OscuDevice> {
  return {
    baseUrl: await baseUrlOf(deps, device),
    tin: device.tin!,
    branchId: device.branchId,
    cmcKey: device.cmcKeySealed ? decryptSecret(deps.config.secretsKey, device.cmcKeySealed) : null,
  };
}

/**
 * KRA's one-time device initialisation (selectInitOsdcInfo): the communication key it returns is
 * sealed at rest. Invoicing is then on, and the sales recorded meanwhile as awaiting are queued.
 */
export async function initialiseDevice(deps: AppDeps, actor: Actor, requestId: string) {
  const device = await q.deviceOf(deps.db);
  if (!device?.tin || !device.deviceSerial) throw fieldError('tin', taxTexts.notConfigured);
  let answer;
  try {
    answer = await callOscu<{ info?: { cmcKey?: string; sdcId?: string; mrcNo?: string } }>(
      { ...(await oscuDeviceOf(deps, device)), cmcKey: null },
      'selectInitOsdcInfo',
      { tin: device.tin, bhfId: device.branchId, dvcSrlNo: device.deviceSerial },
    );
  } catch (error) {
    if (error instanceof OscuUnreachable) throw conflict(error.message, 'etims_unreachable');
    throw error;
  }
  const info = answer.data?.info;
  if (answer.resultCd !== OSCU_RESULT.ok || !info?.cmcKey) {
    throw conflict(`KRA refused the initialisation: ${answer.resultCd} ${answer.resultMsg}`, 'etims_refused');
  }
  const { saved, queued } = await deps.db.transaction(async (tx) => {
    const row = await q.storeInitialisation(tx, {
      cmcKeySealed: encryptSecret(deps.config.secretsKey, info.cmcKey!),
      sdcId: info.sdcId ?? null,
      mrcNo: info.mrcNo ?? null,
      updatedBy: actor.userId,
    });
    const waiting = await q.queueAwaitingInvoices(tx);
    await audit(tx, 'tax.initialise', 1, byStaff(actor, requestId), { after: { sdc_id: info.sdcId ?? null, mrc_no: info.mrcNo ?? null, queued: waiting } });
    return { saved: row, queued: waiting };
  });
  if (queued > 0) await deps.jobs.nudge(QUEUES.taxInvoices);
  return { info: taxTexts.initialised, settings: await settingsView(deps, saved), queued };
}

// ---- Queueing invoices and credit notes (inside the sale's own transaction) -------------------

export interface Sale {
  subscriptionId: number;
  paymentId: number | null;
  what: { packageId: number } | { planId: number };
  amountCents: number;
  createdBy: number | null;
  /** The package's or plan's name when the caller holds it (one read fewer). */
  itemName?: string;
  /** The line's quantity: the days of a daily package bought (decision 095); 1 when not given. */
  quantity?: number;
  /** The payer's full phone when the caller holds it (null: M-Pesa hid it); read from the payment otherwise. */
  buyerPhone?: string | null;
}

/**
 * An invoice of money received (a sale, or a bonus payment counted as income), in the caller's
 * transaction: the device's tax type, the branch's next number, the payer's phone; queued when
 * invoicing is on, else awaiting with its number. The number is taken by the last statement, so
 * that the branch's counter is held as briefly as the transaction allows.
 */
export async function insertSaleInvoice(
  tx: Queryable,
  s: {
    paymentId: number | null;
    subscriptionId?: number;
    bonusPaymentId?: number;
    item: { code: string; name: string };
    amountCents: number;
    /** The line's quantity (decision 095): the amount is this many units of one price. */
    quantity?: number;
    createdBy: number | null;
    buyerPhone?: string | null;
    /** The invoice this one is issued again in place of (decision 074). */
    reissueOf?: number;
  },
  riders: readonly Rider[] = [],
): Promise<number> {
  const buyerPhone = s.buyerPhone !== undefined ? s.buyerPhone : s.paymentId ? await q.payerPhoneOf(tx, s.paymentId) : null;
  // The device's branch, tax type and status are read by the numbering statement itself.
  return q.insertDeviceInvoice(tx, {
    paymentId: s.paymentId,
    subscriptionId: s.subscriptionId ?? null,
    bonusPaymentId: s.bonusPaymentId ?? null,
    itemCode: s.item.code,
    itemName: s.item.name,
    amountCents: s.amountCents,
    quantity: s.quantity ?? 1,
    taxCents: { B: inclusiveTaxCents(s.amountCents, 'B'), D: inclusiveTaxCents(s.amountCents, 'D') },
    buyerPhone,
    reissueOf: s.reissueOf ?? null,
    createdBy: s.createdBy,
  }, riders);
}

/** The invoice number a sale took in its own transaction (the receipt SMS's invoice line), or null. */
export function saleInvoiceNumber(tx: Queryable, subscriptionId: number): Promise<number | null> {
  return q.invoiceNumberOfSale(tx, subscriptionId);
}

/**
 * Queues the invoice of a sale, in the sale's transaction: a subscription bought with money. It
 * takes the branch's next number; invoicing off, it waits as "awaiting" with its number.
 */
export async function queueSaleInvoice(tx: Queryable, sale: Sale, riders: readonly Rider[] = []): Promise<number> {
  const item = itemOf(sale.what, sale.itemName ?? (await q.productName(tx, sale.what)) ?? 'Subscription');
  return insertSaleInvoice(
    tx,
    {
      paymentId: sale.paymentId,
      subscriptionId: sale.subscriptionId,
      item,
      amountCents: sale.amountCents,
      ...(sale.quantity !== undefined ? { quantity: sale.quantity } : {}),
      createdBy: sale.createdBy,
      ...(sale.buyerPhone !== undefined ? { buyerPhone: sale.buyerPhone } : {}),
    },
    riders,
  );
}

/** The eTIMS item of a bonus payment invoiced as income: one service item, its price the amount paid. */
const BONUS_ITEM = { code: 'KE3NTU3000000', name: 'Bonus on winnings' };

/**
 * With the `tax_invoice_bonus_payments` setting on (decision 035), a bonus payment is income like a
 * sale: its invoice is queued in the payment's transaction, numbered in the same sequence. Returns
 * the invoice's id, or null when the setting is off.
 */
export async function queueBonusInvoice(
  tx: Queryable,
  b: { bonusPaymentId: number; paymentId: number | null; amountCents: number; createdBy: number | null },
): Promise<number | null> {
  if ((await getSetting(tx, 'tax_invoice_bonus_payments')) !== true) return null;
  return insertSaleInvoice(tx, {
    paymentId: b.paymentId,
    bonusPaymentId: b.bonusPaymentId,
    item: BONUS_ITEM,
    amountCents: b.amountCents,
    createdBy: b.createdBy,
  });
}

/** A reversed bonus payment (its M-Pesa claim was wrong): a credit note for what of its invoice is open. */
export async function creditReversedBonusPayments(
  tx: Queryable,
  r: { paymentId: number; reason: string; createdBy: number | null },
): Promise<number[]> {
  const invoices = await q.lockBonusInvoicesOfPayment(tx, r.paymentId);
  const ids: number[] = [];
  for (const invoice of invoices) {
    const open = await creditableCents(tx, invoice);
    if (open > 0) ids.push(await insertCreditNote(tx, invoice, { amountCents: open, reason: r.reason, cause: 'reversal', createdBy: r.createdBy }));
  }
  return ids;
}

/** How much of an invoice is not yet credited, in cents. */
async function creditableCents(tx: Queryable, invoice: q.TaxInvoiceRow): Promise<number> {
  return invoice.amountCents - (await q.creditedCents(tx, invoice.id));
}

/**
 * eTIMS OSCU's credit-note reason (`rfdRsnCd`, code list "credit-note-reason") for each reason a
 * refund is asked for: 06 Refund where the sale itself was right, 09 Wrong amount/price, 08 Wrong
 * customer name (the money was meant for another account), 13 Other reason.
 */
export const CREDIT_REASON_CODES: Record<RefundReason, string> = {
  wrong_amount: '09',
  paid_twice: '06',
  wrong_account: '08',
  policy: '06',
  other: '13',
};
/** A credit note that no refund caused (a wrong claim undone, a reversed bonus): 06 Refund. */
const DEFAULT_CREDIT_REASON_CODE = '06';

export async function insertCreditNote(
  tx: Queryable,
  invoice: q.TaxInvoiceRow,
  c: { amountCents: number; reason: string; cause: (typeof CREDIT_NOTE_CAUSES)[number]; createdBy: number | null; refundReason?: RefundReason | undefined },
): Promise<number> {
  const device = await q.deviceOf(tx);
  const number = await q.takeInvoiceNumber(tx, invoice.branchId);
  return q.insertCreditNote(tx, {
    branchId: invoice.branchId,
    number,
    originalId: invoice.id,
    cause: c.cause,
    paymentId: invoice.paymentId,
    subscriptionId: invoice.subscriptionId,
    bonusPaymentId: invoice.bonusPaymentId,
    itemCode: invoice.itemCode,
    itemName: invoice.itemName,
    amountCents: c.amountCents,
    taxType: invoice.taxType,
    taxCents: inclusiveTaxCents(c.amountCents, invoice.taxType),
    buyerPhone: invoice.buyerPhone,
    buyerPin: invoice.buyerPin,
    buyerName: invoice.buyerName,
    status: invoicingOn(device) ? 'queued' : 'awaiting',
    reason: c.reason,
    creditReasonCode: c.refundReason ? CREDIT_REASON_CODES[c.refundReason] : DEFAULT_CREDIT_REASON_CODE,
    createdBy: c.createdBy,
  });
}

/**
 * Issues the credit note of a refund, in the refund's transaction (the refunds module calls this, decision 036): against
 * the payment's invoices, newest first, for the amount returned. Money returned beyond what was
 * invoiced (an unspent balance) was never a sale and gets no credit note. Returns the credit
 * notes' ids (none when the payment bought nothing).
 */
export async function queueCreditNote(
  tx: Queryable,
  r: { paymentId: number; amountCents: number; reason: string; createdBy?: number | null; cause?: 'refund' | 'shortened'; refundReason?: RefundReason },
): Promise<number[]> {
  if (!Number.isInteger(r.amountCents) || r.amountCents <= 0) throw fieldError('amount', refusalTexts.creditAmountNotPositive);
  const invoices = await q.lockInvoicesOfPayment(tx, r.paymentId);
  let left = r.amountCents;
  const ids: number[] = [];
  for (const invoice of invoices) {
    if (left === 0) break;
    const open = await creditableCents(tx, invoice);
    const credit = Math.min(open, left);
    if (credit <= 0) continue;
    ids.push(
      await insertCreditNote(tx, invoice, {
        amountCents: credit,
        reason: r.reason,
        cause: r.cause ?? 'refund',
        createdBy: r.createdBy ?? null,
        refundReason: r.refundReason,
      }),
    );
    left -= credit;
  }
  return ids;
}

/** A reversed sale (its subscription undone): a credit note for what of its invoice is still open. */
export async function creditReversedSale(
  tx: Queryable,
  r: { subscriptionId: number; reason: string; createdBy: number | null; refundReason?: RefundReason | undefined },
): Promise<number | null> {
  const invoice = await q.lockInvoiceOfSale(tx, r.subscriptionId);
  if (!invoice) return null;
  const open = await creditableCents(tx, invoice);
  if (open <= 0) return null;
  return insertCreditNote(tx, invoice, { amountCents: open, reason: r.reason, cause: 'reversal', createdBy: r.createdBy, refundReason: r.refundReason });
}

// ---- Transmission ------------------------------------------------------------------------------

const kes = (cents: number) => centsToKes(cents);

/** A sale made with a promo code: its list price and the cents off (the invoice's amount is what was paid). */
export interface LineDiscount {
  listPriceCents: number;
  discountCents: number;
}

/** The line's discount rate: the cents off as a percentage of the list price, to two decimals (decision 081). */
export const discountRate = (d: LineDiscount) => Math.round((d.discountCents * 10_000) / d.listPriceCents) / 100;

/**
 * saveTrnsSalesOsdc's body for one invoice (receipt type S) or credit note (R), one line. A sale made
 * with a promo code shows its list price (prc, splyAmt = prc × qty), the discount (dcRt, dcAmt) and
 * the taxable value after it (taxblAmt = splyAmt − dcAmt, the amount paid); without one, dcRt and dcAmt are 0.
 * A daily package's sale (decision 095) is qty days at the day price: splyAmt = prc × qty exactly
 * (the list price is days × the day price, in cents); a credit note is one unit of what it credits.
 */
export function salesRequest(device: { tin: string; branchId: string }, inv: q.TaxInvoiceRow, originalNumber: number | null, discount: LineDiscount | null = null) {
  const listCents = discount ? discount.listPriceCents : inv.amountCents;
  const qty = lineQuantity(inv, listCents);
  const at = inv.createdAt;
  const taxable = (t: TaxType) => (inv.taxType === t ? kes(inv.amountCents) : 0);
  const taxOf = (t: TaxType) => (inv.taxType === t ? kes(inv.taxCents) : 0);
  const credit = inv.kind === 'credit_note';
  return {
    tin: device.tin,
    bhfId: device.branchId,
    trdInvcNo: `${credit ? 'CN' : 'INV'}-${inv.branchId}-${inv.number}`,
    invcNo: inv.number,
    orgInvcNo: originalNumber ?? 0,
    salesTyCd: 'N',
    rcptTyCd: credit ? 'R' : 'S',
    // Mobile money; a bonus paid outside M-Pesa (cash, bank: recorded by an admin) is 07, other.
    pmtTyCd: inv.bonusPaymentId !== null && inv.paymentId === null ? '07' : '06',
    salesSttsCd: '02',
    cfmDt: oscuDateTime(at),
    salesDt: oscuDateTime(at).slice(0, 8),
    ...(credit ? { rfdDt: oscuDateTime(at), rfdRsnCd: inv.creditReasonCode ?? DEFAULT_CREDIT_REASON_CODE } : {}),
    totItemCnt: 1,
    taxblAmtA: taxable('A'), taxblAmtB: taxable('B'), taxblAmtC: taxable('C'), taxblAmtD: taxable('D'), taxblAmtE: taxable('E'),
    taxRtA: TAX_RATES.A, taxRtB: TAX_RATES.B, taxRtC: TAX_RATES.C, taxRtD: TAX_RATES.D, taxRtE: TAX_RATES.E,
    taxAmtA: taxOf('A'), taxAmtB: taxOf('B'), taxAmtC: taxOf('C'), taxAmtD: taxOf('D'), taxAmtE: taxOf('E'),
    totTaxblAmt: kes(inv.amountCents),
    totTaxAmt: kes(inv.taxCents),
    totAmt: kes(inv.amountCents),
    prchrAcptcYn: 'N',
    remark: credit ? inv.reason : null,
    regrId: 'betdesk', regrNm: 'Betdesk', modrId: 'betdesk', modrNm: 'Betdesk',
    // The buyer's KRA PIN and registered name when kept (decision 074): trnsSalesSaveWr's custTin / custNm.
    ...(inv.buyerPin ? { custTin: inv.buyerPin, custNm: inv.buyerName } : {}),
    receipt: { ...(inv.buyerPhone ? { custMblNo: inv.buyerPhone } : {}), rcptPbctDt: oscuDateTime(at), prchrAcptcYn: 'N' },
    itemList: [
      {
        itemSeq: 1,
        itemCd: inv.itemCode,
        itemClsCd: ITEM_CLASS_CODE,
        itemNm: inv.itemName,
        pkgUnitCd: 'NT', pkg: 1, qtyUnitCd: 'U', qty,
        prc: kes(listCents / qty),
        splyAmt: kes(listCents),
        dcRt: discount ? discountRate(discount) : 0,
        dcAmt: discount ? kes(discount.discountCents) : 0,
        taxTyCd: inv.taxType,
        taxblAmt: kes(inv.amountCents),
        taxAmt: kes(inv.taxCents),
        totAmt: kes(inv.amountCents),
      },
    ],
  };
}

/**
 * The quantity an invoice's line says: the days of a daily package's sale when its list price is a
 * whole number of cents per day (always so: days x the day price), else 1. A credit note is 1.
 */
export function lineQuantity(inv: Pick<q.TaxInvoiceRow, 'kind' | 'quantity'>, listCents: number): number {
  if (inv.kind !== 'invoice' || inv.quantity <= 1 || listCents % inv.quantity !== 0) return 1;
  return inv.quantity;
}

/** Retry delay after the nth failed attempt: 30 s doubling, at most an hour. */
export const backoffSeconds = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
const LEASE_SECONDS = 120;

/** Registers the item with saveItem when KRA has not got it as it now is (name, price, tax type). */
async function ensureItemRegistered(db: Queryable, device: OscuDevice, inv: q.TaxInvoiceRow, listCents: number): Promise<string | null> {
  const known = await q.registeredItem(db, inv.branchId, inv.itemCode);
  if (known && known.name === inv.itemName && known.taxType === inv.taxType && (inv.kind === 'credit_note' || inv.bonusPaymentId !== null || known.priceCents === listCents)) return null;
  const answer = await callOscu(device, 'saveItem', {
    itemCd: inv.itemCode,
    itemClsCd: ITEM_CLASS_CODE,
    itemTyCd: '3',
    itemNm: inv.itemName,
    orgnNatCd: 'KE',
    pkgUnitCd: 'NT',
    qtyUnitCd: 'U',
    taxTyCd: inv.taxType,
    dftPrc: kes(listCents),
    isrcAplcbYn: 'N',
    useYn: 'Y',
    regrId: 'betdesk', regrNm: 'Betdesk', modrId: 'betdesk', modrNm: 'Betdesk',
  });
  if (answer.resultCd !== OSCU_RESULT.ok) return `Item ${inv.itemCode} refused: ${answer.resultCd} ${answer.resultMsg}`;
  await q.saveRegisteredItem(db, { itemCode: inv.itemCode, branchId: inv.branchId, name: inv.itemName, priceCents: listCents, taxType: inv.taxType });
  return null;
}

type SendOutcome = 'sent' | 'rejected' | 'retry' | 'waiting';

/**
 * The discount a sale's invoice carries on its line: the sale's promo code use, when the invoice is
 * for the price that use asked (a credit note, a bonus or any other amount carries none). The
 * printable invoice shows the same line (document.ts).
 */
export async function lineDiscountOf(db: Queryable, inv: q.TaxInvoiceRow): Promise<LineDiscount | null> {
  if (inv.kind !== 'invoice' || inv.subscriptionId === null) return null;
  const d = await discountOfSale(db, inv.subscriptionId);
  if (!d || d.priceCents !== inv.amountCents || d.listPriceCents !== d.priceCents + d.discountCents) return null;
  return { listPriceCents: d.listPriceCents, discountCents: d.discountCents };
}

async function sendOne(db: Queryable, device: OscuDevice, inv: q.TaxInvoiceRow): Promise<SendOutcome> {
  let originalNumber: number | null = null;
  if (inv.kind === 'credit_note') {
    const original = await q.invoiceRow(db, inv.originalId!);
    // KRA must hold the invoice before its credit note: wait (without counting an attempt).
    if (original?.status !== 'sent') {
      await q.waitForOriginal(db, inv.id);
      return 'waiting';
    }
    originalNumber = original.number;
  }
  try {
    const discount = await lineDiscountOf(db, inv);
    // The item's default price is one unit's: a daily package's day price (decision 095).
    const listCents = discount ? discount.listPriceCents : inv.amountCents;
    const itemRefused = await ensureItemRegistered(db, device, inv, listCents / lineQuantity(inv, listCents));
    if (itemRefused) {
      await q.rejectInvoice(db, inv.id, itemRefused);
      return 'rejected';
    }
    const answer = await callOscu<{ curRcptNo?: number | string; totRcptNo?: number | string; intrlData?: string; rcptSign?: string; sdcDateTime?: string }>(
      device,
      'saveTrnsSalesOsdc',
      salesRequest(device, inv, originalNumber, discount),
    );
    if (answer.resultCd === OSCU_RESULT.ok) {
      const d = answer.data ?? {};
      await q.markInvoiceSent(db, inv.id, {
        kraReceiptNumber: d.curRcptNo == null ? null : Number(d.curRcptNo),
        kraTotalReceiptNumber: d.totRcptNo == null ? null : Number(d.totRcptNo),
        kraInternalData: d.intrlData ?? null,
        kraSignature: d.rcptSign ?? null,
        kraSdcId: (await q.deviceOf(db))?.sdcId ?? null,
        kraSdcTime: d.sdcDateTime ?? null,
      });
      return 'sent';
    }
    if (answer.resultCd === OSCU_RESULT.duplicate) {
      // A send whose answer was lost (the worker died, the line dropped): KRA holds it already.
      await q.markInvoiceAlreadyHeld(db, inv.id, `KRA already held this invoice (${answer.resultCd})`);
      return 'sent';
    }
    await q.rejectInvoice(db, inv.id, `${answer.resultCd} ${answer.resultMsg}`);
    return 'rejected';
  } catch (error) {
    if (!(error instanceof OscuUnreachable)) throw error;
    await q.retryInvoiceLater(db, inv.id, error.message, backoffSeconds(inv.attempts));
    return 'retry';
  }
}

export interface TransmitReport {
  sent: number;
  rejected: number;
  retry: number;
  more: boolean;
}

/**
 * Sends the due invoices to KRA (the tax-invoices job). Each batch is leased first, so two workers
 * never send the same invoice at once; an answer lost mid-send is resent later and recognised from
 * KRA's duplicate answer. Nothing here runs inside a sale's transaction.
 */
export async function transmitDueInvoices(
  deps: AppDeps,
  options: { batchSize?: number; concurrency?: number; signal?: AbortSignal } = {},
): Promise<TransmitReport> {
  const report: TransmitReport = { sent: 0, rejected: 0, retry: 0, more: false };
  const device = await q.deviceOf(deps.db);
  if (!invoicingOn(device)) return report;
  const oscu = await oscuDeviceOf(deps, device!);
  const batchSize = options.batchSize ?? 200;
  const concurrency = options.concurrency ?? 8;
  for (;;) {
    if (options.signal?.aborted) {
      report.more = true;
      return report;
    }
    const due = await q.leaseDueInvoices(deps.db, batchSize, LEASE_SECONDS);
    if (due.length === 0) return report;
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const inv = due[next++]!;
        const outcome = await sendOne(deps.db, oscu, inv);
        if (outcome !== 'waiting') report[outcome] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
    // KRA down: the batch waits for its backoff instead of spinning on the next one.
    if (due.length < batchSize || report.retry > 0) return report;
  }
}

// ---- Reads -------------------------------------------------------------------------------------

const maskPhone = (phone: string | null) => (phone && phone.length > 7 ? `${phone.slice(0, 6)}***${phone.slice(-3)}` : phone);
const iso = (v: string | Date | null) => (v == null ? null : new Date(v).toISOString());

function invoiceView(r: q.InvoiceListRow) {
  return {
    id: Number(r.id),
    kind: r.kind,
    number: r.number,
    original_number: r.original_number,
    payment_id: r.payment_id == null ? null : Number(r.payment_id),
    trans_id: r.trans_id,
    time: iso(r.created_at)!,
    buyer_phone: maskPhone(r.buyer_phone),
    item: r.item_name,
    amount: kes(Number(r.amount_cents)),
    tax_type: r.tax_type,
    tax: kes(Number(r.tax_cents)),
    status: r.status,
    kra_receipt_number: r.kra_receipt_number,
    sent_at: iso(r.sent_at),
    reason: r.reason,
  };
}

/** An invoice or credit note as the Tax screen's reads answer it. */
export const invoiceViewOf = invoiceView;

export async function invoicesPage(
  deps: AppDeps,
  query: q.InvoiceFilters & { page: number; perPage: number },
) {
  const [page, totals] = await Promise.all([
    q.invoicesPage(deps.db, query, { limit: query.perPage, offset: (query.page - 1) * query.perPage }),
    q.invoiceTotals(deps.db, query),
  ]);
  return {
    invoices: page.map(invoiceView),
    total_records: totals.count,
    total_amount: kes(totals.amountCents),
    total_tax: kes(totals.taxCents),
  };
}

/**
 * The Tax screen's CSV as an accountant reads it: the whole filtered list, streamed; ISO dates
 * (Africa/Nairobi); a credit note's amount, taxable value and tax negative, so that each column
 * sums to the net; the taxable value (without VAT) of each line beside its VAT-inclusive amount.
 */
export function invoicesCsv(deps: AppDeps, filters: q.InvoiceFilters): CsvTable<ReturnType<typeof invoiceView>> {
  const signed = (r: ReturnType<typeof invoiceView>, kes: number) => (r.kind === 'invoice' ? kes : -kes);
  return {
    filename: 'tax-invoices',
    columns: [
      { header: 'Kind', value: (r) => (r.kind === 'invoice' ? 'Invoice' : 'Credit note') },
      { header: 'Number', value: (r) => r.number },
      { header: 'Original number', value: (r) => r.original_number },
      { header: 'Date', value: (r) => nairobiDayOf(new Date(r.time)) },
      { header: 'Time', value: (r) => csvIsoTime(r.time) },
      { header: 'M-Pesa receipt', value: (r) => r.trans_id },
      { header: 'Buyer phone', value: (r) => r.buyer_phone },
      { header: 'Item', value: (r) => r.item },
      { header: 'Taxable value', value: (r) => ((signed(r, Math.round(r.amount * 100)) - signed(r, Math.round(r.tax * 100))) / 100).toFixed(2) },
      { header: 'Tax', value: (r) => signed(r, r.tax).toFixed(2) },
      { header: 'Amount', value: (r) => signed(r, r.amount).toFixed(2) },
      { header: 'Tax type', value: (r) => r.tax_type },
      { header: 'Status', value: (r) => r.status },
      { header: 'KRA receipt number', value: (r) => r.kra_receipt_number },
      { header: 'Reason', value: (r) => r.reason },
    ],
    rows: queryBatches(deps.database, q.invoicesSql(filters, null), invoiceView),
  };
}

/** An instant as an accountant's spreadsheet sorts it: ISO 8601 in Nairobi time, 2026-11-05T14:30:00+03:00. */
const csvIsoTime = (iso: string) => `${new Date(new Date(iso).getTime() + 3 * 3_600_000).toISOString().slice(0, 19)}+03:00`;

export async function qrOf(deps: AppDeps, device: q.TaxDeviceRow | null, signature: string | null, branchId: string) {
  if (!signature || !device?.tin) return null;
  return verificationUrl(await baseUrlOf(deps, device), device.tin, branchId, signature);
}

export async function invoiceDetail(deps: AppDeps, id: number) {
  const found = await q.invoiceById(deps.db, id);
  if (!found) throw notFound(refusalTexts.invoiceNotFound);
  const row = await q.invoiceRow(deps.db, id);
  const device = await q.deviceOf(deps.db);
  return {
    ...invoiceView(found),
    kra:
      row!.status === 'sent'
        ? {
            receipt_number: row!.kraReceiptNumber,
            total_receipt_number: row!.kraTotalReceiptNumber,
            internal_data: row!.kraInternalData,
            signature: row!.kraSignature,
            sdc_id: row!.kraSdcId,
            sdc_time: row!.kraSdcTime,
          }
        : null,
    qr: await qrOf(deps, device, row!.kraSignature, row!.branchId),
  };
}

/** Queues a rejected invoice again, after an admin corrected the setting or item at fault. */
export async function resendInvoice(deps: AppDeps, actor: Actor, id: number, requestId: string) {
  const updated = await deps.db.transaction(async (tx) => {
    const row = await q.lockInvoice(tx, id);
    if (!row) throw notFound(refusalTexts.invoiceNotFound);
    if (row.status !== 'rejected') throw conflict(taxTexts.notRejected, 'not_rejected');
    const device = await q.deviceOf(tx);
    await q.requeueInvoice(tx, id, invoicingOn(device) ? 'queued' : 'awaiting');
    await audit(tx, 'tax.resend', id, byStaff(actor, requestId), { before: { status: row.status, reason: row.reason }, after: { status: 'queued' } });
    return (await q.invoiceById(tx, id))!;
  });
  await deps.jobs.nudge(QUEUES.taxInvoices);
  return { info: taxTexts.resent, invoice: invoiceView(updated) };
}

/** The Nairobi days of a month, YYYY-MM (the VAT return's and the money bridge's month). */
export function monthRange(month: string): q.MonthRange {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** A month's VAT return summary per rate as it reads now, summed from the schedule's lines (what a month's close keeps). */
export async function vatReturnSummary(db: Queryable, month: string) {
  const totals = await q.vatReturnTotals(db, monthRange(month));
  return totals.map((t) => ({
    rate: t.taxType,
    count: t.count,
    taxable: centsToKes(t.amountCents - t.taxCents),
    vat: centsToKes(t.taxCents),
    total: centsToKes(t.amountCents),
  }));
}

/**
 * A closed month (closed, or asked to reopen and not yet reopened; decision 075) with what it read
 * when it closed; null while it is open. The VAT return, the Tax screen and the money bridge read it.
 */
export async function closedMonth(db: Queryable, month: string): Promise<{ closed: BooksClosed; snapshot: BooksSnapshot } | null> {
  const p = await q.booksPeriodOf(db, month);
  if (!p || (p.state !== 'closed' && p.state !== 'reopening') || !p.snapshot || !p.closedAt) return null;
  return { closed: { month, return_reference: p.returnReference, closed_at: p.closedAt.toISOString() }, snapshot: p.snapshot };
}

/** A month's figures per tax type, as an accountant files them. */
export async function monthSummary(deps: AppDeps, month: string) {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const [found, closed] = await Promise.all([
    q.monthSummary(deps.db, { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` }),
    closedMonth(deps.db, month),
  ]);
  const types = [...new Set(found.map((r) => r.tax_type))];
  return {
    month,
    // A closed month says so on its screen (decision 075); its documents are the ones it had when it closed.
    closed: closed?.closed ?? null,
    rows: types.map((t) => {
      const of = (kind: 'invoice' | 'credit_note') => found.find((r) => r.tax_type === t && r.kind === kind);
      const sales = Number(of('invoice')?.amount ?? 0);
      const salesTax = Number(of('invoice')?.tax ?? 0);
      const credits = Number(of('credit_note')?.amount ?? 0);
      const creditsTax = Number(of('credit_note')?.tax ?? 0);
      return {
        tax_type: t,
        sales: kes(sales),
        tax: kes(salesTax),
        credit_notes: kes(credits),
        credit_notes_tax: kes(creditsTax),
        net: kes(sales - credits),
        net_tax: kes(salesTax - creditsTax),
      };
    }),
  };
}

/** The daily check: the day's sales against its invoices, and each credit note against its reversal. */
export async function dayCheck(deps: AppDeps, day: string) {
  const [totals, found] = await Promise.all([q.dayTotals(deps.db, day), q.dayCheckRows(deps.db, day)]);
  return {
    sales: { count: totals.sales.count, amount: kes(totals.sales.amountCents) },
    invoices: { count: totals.invoices.count, amount: kes(totals.invoices.amountCents) },
    difference: {
      count: totals.sales.count - totals.invoices.count,
      amount: kes(totals.sales.amountCents - totals.invoices.amountCents),
    },
    rows: found.map((r) => ({
      problem: r.problem,
      payment_id: r.payment_id == null ? null : Number(r.payment_id),
      subscription_id: r.subscription_id == null ? null : Number(r.subscription_id),
      invoice_id: r.invoice_id == null ? null : Number(r.invoice_id),
      amount: kes(Number(r.amount_cents)),
      link: r.invoice_id != null ? `/tax?invoice=${r.invoice_id}` : `/mpesa-transactions?payment=${r.payment_id ?? ''}`,
    })),
  };
}

/**
 * The tax part of the nightly money check (same alert, same banner): yesterday's and today's
 * sales against their invoices, and credit notes without their reversal.
 */
export async function taxCheckFailure(db: Queryable): Promise<{ check: string; count: number; examples: string[] } | null> {
  const today = nairobiDayOf(new Date());
  const yesterday = nairobiDayOf(new Date(Date.now() - 86_400_000));
  const found = [...(await q.dayCheckRows(db, yesterday)), ...(await q.dayCheckRows(db, today))];
  if (found.length === 0) return null;
  return {
    check: 'each sale has its tax invoice, each credit note its reversal',
    count: found.length,
    examples: found
      .slice(0, 5)
      .map((r) => `${r.problem.replaceAll('_', ' ')}: payment ${r.payment_id ?? '-'}, subscription ${r.subscription_id ?? '-'}, invoice ${r.invoice_id ?? '-'}, KES ${kesFixed(Number(r.amount_cents))}`),
  };
}

/** The invoice each payment carries on the back office's and the portal's reads, by payment id. */
export function invoicesOfPayments(deps: AppDeps, paymentIds: number[]): Promise<Map<number, InvoiceRef>> {
  return invoiceRefs(deps, 'payment', paymentIds);
}

/** The invoice each subscription (a sale) carries on the back office's and the portal's reads, by subscription id. */
export function invoicesOfSubscriptions(deps: AppDeps, subscriptionIds: number[]): Promise<Map<number, InvoiceRef>> {
  return invoiceRefs(deps, 'subscription', subscriptionIds);
}

/** A page of subscription rows with their invoices: one query for the page, whatever its size. */
export async function withSubscriptionInvoices<T extends { id: number }>(deps: AppDeps, list: T[]): Promise<(T & { invoice: InvoiceRef | null })[]> {
  const refs = await invoicesOfSubscriptions(deps, list.map((s) => s.id));
  return list.map((s) => ({ ...s, invoice: refs.get(s.id) ?? null }));
}

async function invoiceRefs(deps: AppDeps, by: 'payment' | 'subscription', ids: number[]): Promise<Map<number, InvoiceRef>> {
  const refs = new Map<number, InvoiceRef>();
  if (ids.length === 0) return refs;
  const found = await q.invoicesOf(deps.db, by, ids);
  const device = await q.deviceOf(deps.db);
  for (const inv of found) {
    refs.set((by === 'payment' ? inv.paymentId : inv.subscriptionId)!, {
      id: inv.id,
      number: inv.number,
      status: inv.status,
      kra_receipt_number: inv.kraReceiptNumber,
      qr: await qrOf(deps, device, inv.kraSignature, inv.branchId),
    });
  }
  return refs;
}

/** Late invoices (neither sent nor rejected after ETIMS_LATE_HOURS): the alert's figure. */
export function lateInvoices(deps: AppDeps): Promise<number> {
  return q.lateInvoiceCount(deps.db, deps.config.etims.lateAfterHours);
}

/** Whether invoicing is on (the dashboard says so when it is not). */
export async function taxInvoicingOn(db: Queryable): Promise<boolean> {
  return invoicingOn(await q.deviceOf(db));
}

/** The transmissions' alert (decision 068): any document KRA rejected, or any waiting longer than the setting. */
export async function transmissionAlert(db: Queryable): Promise<string | null> {
  const hours = await getSetting(db, 'tax_transmission_alert_hours');
  const { counts, old } = await q.transmissionCounts(db, hours);
  return counts.rejected > 0 || old > 0 ? taxTexts.transmissionAlert(counts.rejected, old, hours) : null;
}

/** The dashboard's tax banner: invoicing off, invoices late, or documents KRA rejected or has not accepted in time. */
export async function taxStatus(deps: AppDeps) {
  const [on, late, transmissions] = await Promise.all([taxInvoicingOn(deps.db), lateInvoices(deps), transmissionAlert(deps.db)]);
  return {
    invoicing_on: on,
    late_invoices: late,
    alert: !on ? taxTexts.invoicingOff : late > 0 ? taxTexts.lateInvoices(late) : null,
    transmission_alert: transmissions,
  };
}

