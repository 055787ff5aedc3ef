/**
 * What arrives when a payer answers an STK push: Daraja's callback, with the receipt on success.
 * It settles the request it names (once, whatever an STK query decided before it).
 */
import { kesToCents, normaliseKenyanPhone, readProviderPayload } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { nairobiTime } from './c2b-payload.ts';
import { afterCommit, announcePayment } from './ingest.ts';
import * as claimsQ from './queries/claims.ts';
import * as requestsQ from './queries/payment-requests.ts';
import { endedStatus, storeStkPayment } from './stk-payment.ts';

interface StkCallbackBody {
  checkoutRequestId: string;
  resultCode: string;
  resultDesc: string;
  amountCents: number | null;
  receipt: string | null;
  phone: string | null;
  transTime: Date | null;
}

function readStkCallback(raw: unknown): StkCallbackBody | null {
  const cb = (raw as { Body?: { stkCallback?: Record<string, unknown> } } | null)?.Body?.stkCallback;
  if (!cb || typeof cb.CheckoutRequestID !== 'string' || cb.ResultCode === undefined) return null;
  const items = (cb.CallbackMetadata as { Item?: { Name?: string; Value?: unknown }[] } | undefined)?.Item ?? [];
  const item = (name: string) => {
    const value = items.find((i) => i.Name === name)?.Value;
    return value === undefined || value === null ? null : String(value);
  };
  const amount = item('Amount');
  const cents = amount !== null && /^\d+(\.\d{1,2})?$/.test(amount) ? kesToCents(Number(amount)) : null;
  const date = item('TransactionDate');
  const phone = item('PhoneNumber');
  return {
    checkoutRequestId: cb.CheckoutRequestID,
    resultCode: String(cb.ResultCode),
    resultDesc: typeof cb.ResultDesc === 'string' ? cb.ResultDesc.slice(0, 300) : '',
    amountCents: cents,
    // A receipt is ten characters; a longer text is cut so that it can still be stored (and looked at).
    receipt: item('MpesaReceiptNumber')?.slice(0, 64) ?? null,
    phone: phone ? normaliseKenyanPhone(phone) : null,
    transTime: date ? nairobiTime(date) : null,
  };
}

/** The STK callback: settles its request; a success stores the receipt as a payment (once). */
export async function receiveStkCallback(deps: AppDeps, received: unknown, requestId: string | null): Promise<void> {
  // Read with control characters removed, kept with them escaped: a NUL must not lose the money.
  const { clean, raw } = readProviderPayload(received);
  const cb = readStkCallback(clean);
  if (!cb) return;
  const outcome = await deps.db.transaction(async (tx) => {
    const request = await requestsQ.lockRequestByCheckout(tx, cb.checkoutRequestId);
    if (!request) {
      // A push this server did not send (or lost): its money is still stored, unclaimed.
      if (cb.resultCode === '0' && cb.receipt && cb.amountCents) {
        const stored = await claimsQ.insertPaymentOnce(tx, {
          transId: cb.receipt,
          source: 'stk',
          transactionType: 'STK push',
          amountCents: cb.amountCents,
          msisdn: cb.phone,
          msisdnKind: cb.phone ? 'plain' : 'unknown',
          senderPhone: cb.phone,
          transTime: cb.transTime,
          raw: raw as object,
          status: 'unclaimed',
        });
        if (stored) {
          await announcePayment(tx, { paymentId: stored.id, amountCents: cb.amountCents, senderName: null, account: null, status: 'unclaimed' });
        }
      }
      return null;
    }
    if (request.status === 'paid') {
      // Confirmed earlier by an STK query: the callback brings the receipt.
      if (cb.receipt && request.paymentId) {
        await claimsQ.attachCallbackReceipt(tx, request.paymentId, cb.receipt, raw as object);
      }
      return null;
    }
    if (request.status !== 'pending') {
      // Failed or cancelled here (the STK query timed out, Daraja said so), yet M-Pesa took the
      // money: a success with a receipt is always stored and settled, whatever we had decided.
      if (cb.resultCode !== '0' || !cb.receipt) return null;
    } else if (cb.resultCode !== '0') {
      await requestsQ.recordRequestAnswer(
        tx,
        request.id,
        { status: endedStatus(cb.resultCode), resultCode: cb.resultCode, resultDesc: cb.resultDesc },
        { settledNow: true },
      );
      return null;
    }
    const stored = await storeStkPayment(
      tx,
      request,
      {
        receipt: cb.receipt,
        amountCents: cb.amountCents ?? request.amountCents,
        phone: cb.phone ?? request.phone,
        transTime: cb.transTime,
        raw,
      },
      requestId,
    );
    const late = request.status !== 'pending' ? ` (arrived after the request was marked ${request.status})` : '';
    await requestsQ.recordRequestAnswer(
      tx,
      request.id,
      { status: 'paid', resultCode: '0', resultDesc: `${cb.resultDesc}${late}`.slice(0, 300), paymentId: stored.paymentId },
      { settledNow: true },
    );
    return stored.outcome;
  });
  await afterCommit(deps, outcome);
}
