import { z } from 'zod';
import { ApprovalCodeForm } from './approval-code.ts';
import { csvExport, endpoint } from './endpoint.ts';
import { providerBody } from './text.ts';
import { Id, PageQuery } from './common.ts';
import { dateRangeFields, endsAfterStart, rangeOrderError } from './date-range.ts';
import { SORT_DIRECTIONS } from './lists.ts';

/** Why money goes back (decision 036); `other` needs a note. */
export const REFUND_REASONS = ['wrong_amount', 'paid_twice', 'wrong_account', 'policy', 'other'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** Reversal returns the payment itself; B2C pays the payer's phone from the utility account. */
export const REFUND_METHODS = ['reversal', 'b2c'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

/** What happens to the subscription or Bet4Me plan the payment bought when the refund succeeds. */
export const REFUND_EFFECTS = ['none', 'cancel', 'shorten'] as const;
export type RefundEffect = (typeof REFUND_EFFECTS)[number];

/**
 * A refund's life: asked, approved (a second approval when it passes the day's limit), handed to
 * M-Pesa, then done or failed by M-Pesa's result only; `unknown` when M-Pesa's queue timed out or
 * the answer never came, until a Transaction Status query says how it ended; `held` when M-Pesa's
 * result names another amount, receiver or request than the refund's, until an admin decides.
 */
export const REFUND_STATUSES = [
  'awaiting_approval',
  'awaiting_second_approval',
  'sending',
  'unknown',
  'held',
  'done',
  'failed',
  'cancelled',
] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const refundTexts = {
  requested: 'Refund requested: another admin must approve it',
  approved: 'Refund approved: it is being sent to M-Pesa',
  needsSecondApproval: "Refund approved, but it passes today's refund limit: a further admin must approve it",
  cancelled: 'Refund cancelled',
  initiatorSaved: 'M-Pesa initiator saved',
  moreThanLeft: (leftKes: string) => `At most KES ${leftKes} of this payment is left to refund`,
  maskedPayer: "M-Pesa hid this payer's phone number: only a Reversal can return this payment",
  notRefundable: 'Only a received (claimed or unclaimed) payment can be refunded',
  reversalWholeOnly: 'A Reversal returns the whole payment: choose B2C to return part of it',
  wholeShillings: 'M-Pesa B2C sends whole shillings: enter the amount without cents',
  reversalTooOld: (days: number) => `M-Pesa reverses payments of the last ${days} days only: choose B2C`,
  noteRequired: 'Say why in the note',
  ownRequest: 'You asked for this refund: another admin must approve it',
  alreadyApproved: 'You approved this refund already: a further admin must approve it',
  tiedToRequester:
    'Your admin rights and those of the admin who asked for this refund come from one another (one asked for or approved the other\'s, or one admin asked for both): an admin outside that chain must approve it',
  tiedToFirstApprover:
    'Your admin rights and those of the admin who approved this refund first come from one another: an admin outside that chain must approve it',
  coolingOff: (until: string) => `New admins may approve refunds only after their cooling-off period: from ${until}`,
  notAwaiting: 'This refund is no longer waiting for approval',
  noSecondFactor: 'Turn on two-factor sign-in (My Profile) before approving refunds',
  wrongCode: 'This code is not right. Check the time on your phone.',
  notToResolve: 'Only a refund held for review, or unknown past the limit, is marked by an admin',
  stillAsking: (hours: number) => `M-Pesa is still being asked how this refund ended: an admin marks it after ${hours} hours`,
  receiptRequired: 'Enter the M-Pesa receipt of the refund, as the statement shows it',
  resolveNoteRequired: 'Say what the M-Pesa statement shows',
  markedDone: 'Refund marked done',
  markedFailed: 'Refund marked failed: the money did not go back',
  /** What an admin does about a refund M-Pesa has not settled (the Refunds screen shows it). */
  unknownTooLong: (hours: number) =>
    `M-Pesa has not said how this refund ended in ${hours} hours. Look for it on the M-Pesa statement (org portal): mark it done with its receipt if the money went back, or failed if it did not.`,
  heldForReview: (mismatch: string) =>
    `M-Pesa's result does not match this refund (${mismatch}). Check the M-Pesa statement (org portal): mark it done if the refund's amount went back to the right phone, or failed if it did not.`,
} as const;

export const RefundForm = z
  .object({
    payment_id: Id,
    amount: z.coerce.number({ message: 'Enter the amount' }).positive('The amount must be more than 0').multipleOf(0.01, 'At most two decimals'),
    reason: z.enum(REFUND_REASONS, { message: 'Choose a reason' }),
    note: z.string().trim().max(500).optional(),
    method: z.enum(REFUND_METHODS, { message: 'Choose how the money goes back' }),
    /** What happens to what the payment bought; `none` when it bought nothing. */
    effect: z.enum(REFUND_EFFECTS).default('none'),
  })
  .refine((v) => v.reason !== 'other' || Boolean(v.note), { path: ['note'], message: refundTexts.noteRequired });
export type RefundForm = z.infer<typeof RefundForm>;

export const Refund = z.object({
  id: z.number(),
  payment_id: z.number(),
  trans_id: z.string().nullable(),
  amount: z.number(),
  reason: z.enum(REFUND_REASONS),
  note: z.string().nullable(),
  method: z.enum(REFUND_METHODS),
  effect: z.enum(REFUND_EFFECTS),
  status: z.enum(REFUND_STATUSES),
  requested_by: z.string().nullable(),
  approved_by: z.string().nullable(),
  mpesa_receipt: z.string().nullable(),
  /** M-Pesa's answer in words (ResultDesc), or why it is unknown or held. */
  result: z.string().nullable(),
  /** What an admin must do about it (held for review, or unknown past the limit); null: nothing. */
  attention: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type Refund = z.infer<typeof Refund>;

export const createRefund = endpoint({
  method: 'POST',
  path: '/api/refunds',
  tag: 'refunds',
  summary: 'Asks to refund (part of) a payment; another admin approves it',
  access: 'manage:refunds',
  body: RefundForm,
  response: z.object({ info: z.string(), refund: Refund }),
});

/** The approver's fresh code from their authenticator app. */
export const ApproveRefundForm = ApprovalCodeForm;

export const approveRefund = endpoint({
  method: 'POST',
  path: '/api/refunds/:id/approve',
  tag: 'refunds',
  summary: "Approves a refund with the approver's TOTP code (never the requester)",
  access: 'manage:refunds',
  body: ApproveRefundForm,
  response: z.object({ info: z.string(), refund: Refund }),
});

/**
 * An admin's decision on a refund held for review or unknown past the limit, after the M-Pesa
 * statement: it went back (done, with the statement's receipt when M-Pesa gave none) or it did not.
 */
export const RESOLVE_OUTCOMES = ['done', 'failed'] as const;
export const ResolveRefundForm = z
  .object({
    outcome: z.enum(RESOLVE_OUTCOMES, { message: 'Choose done or failed' }),
    receipt: z
      .string()
      .trim()
      .toUpperCase()
      .max(20)
      .regex(/^[A-Z0-9]*$/, 'An M-Pesa receipt is letters and digits')
      .optional(),
    note: z.string({ message: refundTexts.resolveNoteRequired }).trim().min(1, refundTexts.resolveNoteRequired).max(500),
  });
export type ResolveRefundForm = z.infer<typeof ResolveRefundForm>;

export const resolveRefund = endpoint({
  method: 'POST',
  path: '/api/refunds/:id/resolve',
  tag: 'refunds',
  summary: 'Marks a refund held for review, or unknown past the limit, done or failed after the M-Pesa statement (audited, with the note)',
  access: 'manage:refunds',
  body: ResolveRefundForm,
  response: z.object({ info: z.string(), refund: Refund }),
});

export const cancelRefund = endpoint({
  method: 'POST',
  path: '/api/refunds/:id/cancel',
  tag: 'refunds',
  summary: 'Cancels a refund that is not yet approved',
  access: 'manage:refunds',
  response: z.object({ info: z.string(), refund: Refund }),
});

/** The `refunds` entry of LISTS: newest asked first (the one sort), by day asked; `dir` turns it. */
const refundFilterFields = {
  status: z.enum(REFUND_STATUSES).optional(),
  sort: z.enum(['created_at']).optional(),
  dir: z.enum(SORT_DIRECTIONS, { message: 'dir must be asc or desc' }).optional(),
  ...dateRangeFields,
};
export const RefundListQuery = PageQuery.extend(refundFilterFields).refine(endsAfterStart, rangeOrderError);
export const RefundFilterQuery = z.object(refundFilterFields).refine(endsAfterStart, rangeOrderError);

export const listRefunds = endpoint({
  method: 'GET',
  path: '/api/refunds',
  tag: 'refunds',
  summary: 'Refunds by status and day asked, with their count, what went back (done) apart from what is asked and what failed, and how many need an admin',
  access: 'manage:refunds',
  query: RefundListQuery,
  response: z.object({
    refunds: z.array(Refund),
    total_records: z.number(),
    /** KES returned: the filter's done refunds. */
    refunded_amount: z.number(),
    /** KES asked and not settled yet: awaiting approval, sending, unknown or held. */
    asked_amount: z.number(),
    /** KES that did not go back: failed or cancelled. */
    failed_amount: z.number(),
    /** Refunds (of any filter) an admin must decide: held for review, or unknown past the limit. */
    needs_admin: z.number(),
    /** The utility account's balance from M-Pesa's last B2C result, and whether it is below the setting. */
    utility_balance: z.object({ amount: z.number(), at: z.string(), low: z.boolean() }).nullable(),
  }),
});

export const exportRefunds = csvExport({
  path: '/api/refunds/export',
  tag: 'refunds',
  summary: "The refunds of the list's filter, as CSV",
  access: 'manage:refunds',
  query: RefundFilterQuery,
});

/** What a refund form shows of a payment: what is left of it, how it can go back, what it bought. */
export const RefundPreview = z.object({
  payment_id: z.number(),
  trans_id: z.string().nullable(),
  amount: z.number(),
  /** Returned already (M-Pesa confirmed). */
  refunded_amount: z.number(),
  /** What can still be asked: the amount less every refund not failed or cancelled. */
  left: z.number(),
  /** The payer's phone (B2C pays it), or null when M-Pesa masked or hid it: Reversal only. */
  payer_phone: z.string().nullable(),
  /** Reversal returns the whole payment, so only while nothing of it is asked or returned. */
  reversal: z.boolean(),
  b2c: z.boolean(),
  /** The running subscription or Bet4Me plan the payment bought, if any. */
  bought: z
    .object({
      what: z.string(),
      amount: z.number(),
      starts_at: z.string(),
      expires_at: z.string(),
    })
    .nullable(),
});
export type RefundPreview = z.infer<typeof RefundPreview>;

export const refundPreview = endpoint({
  method: 'GET',
  path: '/api/refunds/preview',
  tag: 'refunds',
  summary: 'What a refund of this payment can be: what is left, Reversal or B2C, and what the payment bought',
  access: 'manage:refunds',
  query: z.object({ payment_id: Id }),
  response: RefundPreview,
});

/** The M-Pesa initiator refunds are sent as (the Refunds screen's form). */
export const InitiatorForm = z.object({
  name: z.string().trim().min(1, 'Enter the initiator name').max(100),
  password: z.string().min(1, 'Enter the initiator password').max(200),
  certificate: z
    .string()
    .trim()
    .max(20_000)
    .refine((v) => v.includes('-----BEGIN CERTIFICATE-----'), 'Paste the certificate in PEM form (-----BEGIN CERTIFICATE-----)'),
});

export const saveInitiator = endpoint({
  method: 'POST',
  path: '/api/refunds/initiator',
  tag: 'refunds',
  summary: "Saves the M-Pesa initiator: its name, password (sealed at rest) and M-Pesa's public certificate",
  access: 'manage:refunds',
  body: InitiatorForm,
  response: z.object({ info: z.string() }),
});

/** Daraja's result and queue time-out callbacks of Reversal, B2C and Transaction Status. */
const refundHook = (path: string, summary: string) =>
  endpoint({
    method: 'POST',
    path: `/api/hooks/mpesa/${path}/:secret`,
    tag: 'hooks',
    summary,
    access: 'public',
    body: providerBody(),
    response: z.object({ ResultCode: z.number(), ResultDesc: z.string() }),
  });

export const reversalResult = refundHook('reversal/result', 'Daraja Reversal result: completes or fails the refund, once');
export const reversalTimeout = refundHook('reversal/timeout', "Daraja Reversal queue time-out: the refund's end is unknown until a status query");
export const b2cResult = refundHook('b2c/result', 'Daraja B2C result: completes or fails the refund, once; records the utility balance');
export const b2cTimeout = refundHook('b2c/timeout', "Daraja B2C queue time-out: the refund's end is unknown until a status query");
export const statusResult = refundHook('status/result', 'Daraja Transaction Status result: resolves an unknown refund');
