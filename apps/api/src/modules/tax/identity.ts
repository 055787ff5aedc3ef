/**
 * A buyer's KRA PIN (decision 074): staff record a PIN and registered name on a Bet4Me client or a
 * tips subscriber, a punter on the portal; KRA's customer lookup (OSCU selectCustomer) checks it
 * when the device can ask. A sale to a buyer with a PIN carries it to KRA (custTin/custNm); an
 * invoice sent without one is reissued on request by a credit note and a new invoice, once.
 * Lives in: apps/api/src/modules/tax (the tax invoices' feature folder).
 */
import { buyerPinTexts, centsToKes, refusalTexts, type TaxIdentityForm, type TaxIdentityView } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { callOscu, OSCU_RESULT, OscuUnreachable } from '../../integrations/etims/oscu.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff, type AuditBy } from '../audit/service.ts';
import * as q from './queries.ts';
import * as iq from './queries/identity.ts';
import { inclusiveTaxCents, insertCreditNote, insertSaleInvoice, invoicingOn, oscuDeviceOf } from './invoices.ts';

export type Buyer = iq.Buyer;

/** Who bought what an invoice is of (its subscription's client or subscriber, its staff member, the phone). */
export const buyerOfInvoice = (db: Queryable, invoiceId: number) => iq.buyerOfInvoice(db, invoiceId);

/** KRA's answer "There is no search result" to a lookup. */
const NO_SEARCH_RESULT = '001';

/**
 * Asks KRA whether it knows the PIN (selectCustomer). Invoicing off (no device key) or KRA
 * unreachable: unverified, stored all the same. KRA saying it has no such PIN refuses it.
 */
async function checkWithKra(deps: AppDeps, pin: string): Promise<{ verification: 'verified' | 'unverified'; verifiedName: string | null }> {
  const device = await q.deviceOf(deps.db);
  if (!device || !invoicingOn(device)) return { verification: 'unverified', verifiedName: null };
  try {
    const answer = await callOscu<{ custList?: { tin?: string; taxprNm?: string }[] }>(await oscuDeviceOf(deps, device), 'selectCustomer', {
      tin: device.tin,
      bhfId: device.branchId,
      custmTin: pin,
    });
    if (answer.resultCd === NO_SEARCH_RESULT) throw fieldError('pin', buyerPinTexts.unknownToKra);
    const found = answer.resultCd === OSCU_RESULT.ok ? answer.data?.custList?.find((c) => c.tin === pin) : undefined;
    return found ? { verification: 'verified', verifiedName: found.taxprNm ?? null } : { verification: 'unverified', verifiedName: null };
  } catch (error) {
    if (error instanceof OscuUnreachable) return { verification: 'unverified', verifiedName: null };
    throw error;
  }
}

export async function identityView(db: Queryable, buyer: iq.Buyer, documentBase = '/api/tax/invoices'): Promise<TaxIdentityView> {
  const identity = await iq.identityOf(db, buyer);
  const invoices = await iq.invoicesOfBuyer(db, buyer);
  return {
    identity: identity && {
      pin: identity.pin,
      name: identity.name,
      verification: identity.verification,
      verified_name: identity.verifiedName,
      updated_at: identity.updatedAt.toISOString(),
    },
    invoices: invoices.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      number: r.number,
      time: new Date(r.created_at).toISOString(),
      amount: centsToKes(Number(r.amount_cents)),
      status: r.status,
      buyer_pin: r.buyer_pin,
      reissued_as: r.reissued_as === null ? null : Number(r.reissued_as),
      document_url: `${documentBase}/${r.id}/document`,
    })),
  };
}

const auditActionOf = (b: iq.Buyer): 'tax-identity.client' | 'tax-identity.subscriber' => ('clientId' in b ? 'tax-identity.client' : 'tax-identity.subscriber');
const entityOf = (b: iq.Buyer) => ('clientId' in b ? b.clientId : b.subscriberId);

/**
 * Records (or, with an empty PIN, removes) a buyer's KRA PIN and registered name, audited. The
 * caller has already found the client or subscriber in the actor's scope.
 */
export async function saveTaxIdentity(deps: AppDeps, buyer: iq.Buyer, form: TaxIdentityForm, by: AuditBy & { userId: number | null; via: string }) {
  const checked = form.pin === '' ? null : await checkWithKra(deps, form.pin);
  await deps.db.transaction(async (tx) => {
    const before = await iq.identityOf(tx, buyer);
    if (checked === null) {
      if (!before) return;
      await iq.clearIdentity(tx, buyer);
    } else {
      if (before && before.pin === form.pin && before.name === form.name && before.verification === checked.verification) return;
      await iq.saveIdentity(tx, buyer, { pin: form.pin, name: form.name, ...checked, updatedBy: by.userId });
    }
    await audit(tx, auditActionOf(buyer), entityOf(buyer), by, {
      before: before && { pin: before.pin, name: before.name, verification: before.verification },
      after: checked && { pin: form.pin, name: form.name, verification: checked.verification, verified_name: checked.verifiedName, by: by.via },
    });
  });
  return { info: checked ? buyerPinTexts.saved : buyerPinTexts.cleared, ...(await identityView(deps.db, buyer)) };
}

export function saveTaxIdentityByStaff(deps: AppDeps, actor: Actor, buyer: iq.Buyer, form: TaxIdentityForm, requestId: string) {
  return saveTaxIdentity(deps, buyer, form, { ...byStaff(actor, requestId), userId: actor.userId, via: 'staff' });
}

/**
 * Reissues a sale's invoice with the buyer's PIN (decision 074): a credit note of what is still
 * open of it (cause "reissue") and a new invoice of that amount carrying the PIN, tied to the
 * original. Once per invoice: asked again, it answers with the same two documents.
 */
export async function reissueInvoice(deps: AppDeps, actor: Actor, id: number, requestId: string) {
  const result = await deps.db.transaction(async (tx) => {
    const original = await q.lockInvoice(tx, id);
    if (!original) throw notFound(refusalTexts.invoiceNotFound);
    const done = await iq.reissueOf(tx, id);
    if (done) {
      const note = await iq.reissueCreditNote(tx, id);
      return { info: buyerPinTexts.alreadyReissued, credit_note_id: note!.id, invoice_id: done.id, fresh: false };
    }
    if (original.kind !== 'invoice' || original.subscriptionId === null) throw conflict(buyerPinTexts.notReissuable, 'not_reissuable');
    if (original.buyerPin) throw conflict(buyerPinTexts.hasPin, 'has_pin');
    const identity = await iq.identityOfSale(tx, original.subscriptionId);
    if (!identity) throw conflict(buyerPinTexts.noPin, 'no_pin');
    const open = original.amountCents - (await q.creditedCents(tx, original.id));
    if (open <= 0) throw conflict(buyerPinTexts.notReissuable, 'not_reissuable');
    const noteId = await insertCreditNote(tx, original, { amountCents: open, reason: buyerPinTexts.reissueReason, cause: 'reissue', createdBy: actor.userId });
    const invoiceId = await insertSaleInvoice(tx, {
      paymentId: original.paymentId,
      subscriptionId: original.subscriptionId,
      item: { code: original.itemCode, name: original.itemName },
      amountCents: open,
      createdBy: actor.userId,
      buyerPhone: original.buyerPhone,
      reissueOf: original.id,
    });
    await audit(tx, 'tax.reissue', id, byStaff(actor, requestId), {
      after: { credit_note_id: noteId, invoice_id: invoiceId, buyer_pin: identity.pin, amount: centsToKes(open), tax: centsToKes(inclusiveTaxCents(open, original.taxType)) },
    });
    return { info: buyerPinTexts.reissued, credit_note_id: noteId, invoice_id: invoiceId, fresh: true };
  });
  if (result.fresh) await deps.jobs.nudge(QUEUES.taxInvoices);
  return { info: result.info, credit_note_id: result.credit_note_id, invoice_id: result.invoice_id };
}
