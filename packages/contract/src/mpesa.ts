import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { providerBody } from './text.ts';
import { Id, Notice } from './common.ts';
import { KenyanPhone } from './phone.ts';
import { ListCounts, listFilterQuery, listQuery } from './lists.ts';
import { InvoiceRef } from './tax.ts';

export const MPESA_PAYMENT_STATUSES = ['claimed', 'unclaimed', 'rejected'] as const;
export type MpesaPaymentStatus = (typeof MPESA_PAYMENT_STATUSES)[number];

/**
 * A mobile-money transaction (spec section 3) plus what the screens need to act on it: its id, the
 * account number the payer typed, the subscriber it went to, and why a rejected payload was refused.
 * `sender_phone` is a phone only: a hashed MSISDN gives null, a masked one is in `sender_msisdn`.
 */
/** Said of an unclaimed payment whose payer M-Pesa identified only by a hashed or masked number. */
export const PAYER_NUMBER_HIDDEN = "payer's number is hidden: claim it to a subscriber";

export const MpesaTransaction = z.object({
  id: z.number(),
  amount: z.number().nullable(),
  sender_name: z.string().nullable(),
  sender_phone: z.string().nullable(),
  sender_msisdn: z.string().nullable(),
  transaction_reference: z.string().nullable(),
  transaction_timestamp: z.string(),
  account_number: z.string().nullable(),
  status: z.enum(MPESA_PAYMENT_STATUSES),
  client_name: z.string().nullable(),
  client_id: z.number().nullable(),
  subscriber_name: z.string().nullable(),
  subscriber_id: z.number().nullable(),
  reject_reason: z.string().nullable(),
  /** Why an unclaimed payment was not matched, when the server can tell (e.g. the payer's number is hidden). */
  unclaimed_reason: z.string().nullable(),
  /** Money received that needs a look before it is claimed (e.g. paid to a shortcode that is not ours). */
  warning: z.string().nullable(),
  /** KES M-Pesa confirmed refunds returned of it (decision 036); 0 when none. */
  refunded_amount: z.number(),
  /**
   * KES its refunds ask back that are not failed or cancelled (waiting for approval, sending,
   * unknown or done): a new refund can ask at most amount minus this, so none is offered at 0 left.
   */
  refund_asked_amount: z.number(),
  /** The KRA tax invoice of the sale this payment made (lists only; none for a payment that bought nothing). */
  invoice: InvoiceRef.nullable().optional(),
});
export type MpesaTransaction = z.infer<typeof MpesaTransaction>;

/** KES totals: what waits unclaimed, and every accepted payment (rejected payloads excluded). */
const TransactionsPage = ListCounts.extend({
  transactions: z.array(MpesaTransaction),
  total_unclaimed: z.number(),
  total_deposit: z.number(),
});

export const mpesaTransactions = endpoint({
  method: 'GET',
  path: '/api/mpesa-transactions',
  tag: 'mpesa',
  summary: 'Every M-Pesa payment received, newest first (sort, from/to on the payment day; totals follow the days)',
  access: 'view:mpesa',
  query: listQuery('mpesaTransactions'),
  response: TransactionsPage,
});

export const searchMpesaTransactions = endpoint({
  method: 'GET',
  path: '/api/mpesa-transactions/search',
  tag: 'mpesa',
  summary: "M-Pesa payments whose sender's name, phone or receipt (ref) matches the search",
  access: 'view:mpesa',
  query: listQuery('mpesaTransactions'),
  response: TransactionsPage,
});

export const unclaimedMpesaTransactions = endpoint({
  method: 'GET',
  path: '/api/mpesa-transactions/unclaimed',
  tag: 'mpesa',
  summary: 'Payments no client or subscriber has been found for yet, newest first',
  access: 'view:mpesa',
  query: listQuery('unclaimedTransactions'),
  response: TransactionsPage,
});

/** Someone a payment can be claimed to. `suggested` says why it looks like the payer. */
export const ClaimCandidate = z.object({
  kind: z.enum(['client', 'subscriber']),
  id: z.number(),
  name: z.string(),
  phone: z.string(),
  suggested: z.string().nullable(),
});
export type ClaimCandidate = z.infer<typeof ClaimCandidate>;

export const claimCandidates = endpoint({
  method: 'GET',
  path: '/api/mpesa-transactions/claim-candidates',
  tag: 'mpesa',
  summary:
    'Clients and subscribers a payment may be claimed to: suggestions from its masked number and name, or a search by name, phone or another payment receipt',
  access: 'claim:payments',
  query: z.object({ transaction_id: Id, search: z.string().trim().max(100).default('') }),
  response: z.object({ transaction: MpesaTransaction, candidates: z.array(ClaimCandidate) }),
});

export const ClaimPayment = z
  .object({
    transaction_id: Id,
    client_id: Id.optional(),
    subscriber_id: Id.optional(),
  })
  .refine((v) => (v.client_id === undefined) !== (v.subscriber_id === undefined), {
    path: ['client_id'],
    message: 'Choose one client or one subscriber',
  });
export type ClaimPayment = z.infer<typeof ClaimPayment>;

export const claimPayment = endpoint({
  method: 'POST',
  path: '/api/mpesa-transactions/claim',
  tag: 'mpesa',
  summary:
    'Claim an unclaimed payment to a client or subscriber; the payment rules then decide what it buys. A second claim is a 409',
  access: 'claim:payments',
  body: ClaimPayment,
  response: Notice.extend({ transaction: MpesaTransaction }),
});

/** Who a claim would go to, as the preview's query string: one client or one subscriber. */
export const ClaimPreviewQuery = z.object({
  transaction_id: Id,
  client_id: Id.optional(),
  subscriber_id: Id.optional(),
});

export const claimPreview = endpoint({
  method: 'GET',
  path: '/api/mpesa-transactions/claim-preview',
  tag: 'mpesa',
  summary:
    'What claiming this payment to this client or subscriber would buy, worked out by the payment rules and then rolled back: nothing is kept',
  access: 'claim:payments',
  query: ClaimPreviewQuery,
  response: z.object({ buys: z.array(z.string()) }),
});

export const unclaimPayment = endpoint({
  method: 'POST',
  path: '/api/mpesa-transactions/unclaim',
  tag: 'mpesa',
  summary:
    'Undo a wrong claim: what the payment bought is reversed by compensating entries and it waits unclaimed again',
  access: 'claim:payments',
  body: z.object({ transaction_id: Id }),
  response: Notice.extend({ transaction: MpesaTransaction }),
});

/** A tips M-Pesa deposit (spec section 3). */
export const TipsDeposit = z.object({
  id: z.number(),
  sender_phone: z.string().nullable(),
  sender_name: z.string().nullable(),
  amount: z.number().nullable(),
  transaction_reference: z.string().nullable(),
  transaction_timestamp: z.string(),
  status: z.enum(MPESA_PAYMENT_STATUSES),
  /** What M-Pesa confirmed went back to the payer (refunds, decision 036). */
  refunded_amount: z.number(),
  /** What its refunds not failed or cancelled ask back (as on MpesaTransaction). */
  refund_asked_amount: z.number(),
});
export type TipsDeposit = z.infer<typeof TipsDeposit>;

export const tipsDeposits = endpoint({
  method: 'GET',
  path: '/api/tips/mpesa/all',
  tag: 'tips',
  summary:
    'Tips deposits: payments that went to a tips subscriber or whose account number names a bet category, newest first',
  access: 'view:tips-deposits',
  query: listQuery('tipsDeposits'),
  response: ListCounts.extend({ deposits: z.array(TipsDeposit) }),
});

export const exportMpesaTransactions = csvExport({
  path: '/api/mpesa-transactions/export',
  tag: 'mpesa',
  summary: 'CSV of the M-Pesa payments the list shows: its search, sort and days',
  access: 'view:mpesa',
  query: listFilterQuery('mpesaTransactions'),
});

export const exportUnclaimedMpesaTransactions = csvExport({
  path: '/api/mpesa-transactions/unclaimed/export',
  tag: 'mpesa',
  summary: 'CSV of the unclaimed payments the list shows: its search, sort and days',
  access: 'view:mpesa',
  query: listFilterQuery('unclaimedTransactions'),
});

export const exportTipsDeposits = csvExport({
  path: '/api/tips/mpesa/export',
  tag: 'tips',
  summary: 'CSV of the tips deposits the list shows: its search, sort and days',
  access: 'view:tips-deposits',
  query: listFilterQuery('tipsDeposits'),
});

// ---- Request payment (STK push) ----

export const STK_REQUEST_STATUSES = ['pending', 'paid', 'cancelled', 'failed'] as const;

export const PaymentRequest = z.object({
  id: z.number(),
  phone: z.string(),
  amount: z.number(),
  item: z.string(),
  status: z.enum(STK_REQUEST_STATUSES),
  result_desc: z.string().nullable(),
  transaction_reference: z.string().nullable(),
  requested_on: z.string(),
});
export type PaymentRequest = z.infer<typeof PaymentRequest>;

export const PayableItem = z.object({
  /** `package:<id>`, `plan:<id>` or `bonus`, as sent back in the request. */
  key: z.string(),
  label: z.string(),
  amount: z.number(),
});
export type PayableItem = z.infer<typeof PayableItem>;

const PayerQuery = z
  .object({ client_id: Id.optional(), subscriber_id: Id.optional() })
  .refine((v) => (v.client_id === undefined) !== (v.subscriber_id === undefined), {
    path: ['client_id'],
    message: 'Choose one client or one subscriber',
  });

export const paymentRequestOptions = endpoint({
  method: 'GET',
  path: '/api/payment-requests/options',
  tag: 'mpesa',
  summary:
    "What a client (a Bet4Me plan or the pending bonus) or a tips subscriber (a package) can be asked to pay, with the payer's phone and recent requests",
  access: 'request:payments',
  query: PayerQuery,
  response: z.object({
    name: z.string(),
    phone: z.string(),
    items: z.array(PayableItem),
    requests: z.array(PaymentRequest),
    configured: z.boolean(),
  }),
});

export const RequestPayment = z
  .object({
    client_id: Id.optional(),
    subscriber_id: Id.optional(),
    item: z.string({ message: 'Choose what to pay for' }).trim().min(1, 'Choose what to pay for'),
    phone: KenyanPhone,
  })
  .refine((v) => (v.client_id === undefined) !== (v.subscriber_id === undefined), {
    path: ['client_id'],
    message: 'Choose one client or one subscriber',
  });
export type RequestPayment = z.infer<typeof RequestPayment>;

export const requestPayment = endpoint({
  method: 'POST',
  path: '/api/payment-requests/store',
  tag: 'mpesa',
  summary: "Send an M-Pesa STK push to the payer's phone for a package, a plan or the pending bonus",
  access: 'request:payments',
  body: RequestPayment,
  response: Notice.extend({ request: PaymentRequest }),
});

export const showPaymentRequest = endpoint({
  method: 'GET',
  path: '/api/payment-requests/show',
  tag: 'mpesa',
  summary: 'How an STK push ended so far (pending until the callback or a query settles it)',
  access: 'request:payments',
  query: z.object({ request_id: Id }),
  response: z.object({ request: PaymentRequest }),
});

// ---- Daraja webhooks (public; the secret path segment is the protection) ----

export const c2bValidation = endpoint({
  method: 'POST',
  path: `/api/hooks/c2b/validation/:secret`,
  tag: 'hooks',
  summary: "Daraja C2B validation: accepts, or refuses with Daraja's C2B codes when the account is plainly invalid",
  access: 'public',
  body: providerBody(),
  response: z.object({ ResultCode: z.string(), ResultDesc: z.string() }),
});

export const c2bConfirmation = endpoint({
  method: 'POST',
  path: `/api/hooks/c2b/confirmation/:secret`,
  tag: 'hooks',
  summary: 'Daraja C2B confirmation: stores the payment once per TransID, then matches it',
  access: 'public',
  body: providerBody(),
  response: z.object({ ResultCode: z.number(), ResultDesc: z.string() }),
});

export const stkCallback = endpoint({
  method: 'POST',
  path: `/api/hooks/stk/:secret`,
  tag: 'hooks',
  summary: 'Daraja STK push callback: settles the request and stores its receipt as a payment',
  access: 'public',
  body: providerBody(),
  response: z.object({ ResultCode: z.number(), ResultDesc: z.string() }),
});

export const successTextsMpesa = {
  paymentClaimed: 'Payment claimed successfully',
  paymentUnclaimed: 'Payment unclaimed successfully',
  paymentRequested: 'Payment request sent to the phone',
} as const;
