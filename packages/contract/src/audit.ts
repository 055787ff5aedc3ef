import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Id, PageQuery } from './common.ts';
import { dateRangeFields, endsAfterStart, rangeOrderError } from './date-range.ts';
import { COUNT_CAP, ListCounts } from './lists.ts';


/** The records Betdesk audits, in the business's words (the filter's choices and the Record column). */
export const AUDIT_ENTITY_NAMES = {
  mpesa_payment: 'M-Pesa payment',
  stk_request: 'M-Pesa payment request',
  mpesa_statement: 'M-Pesa statement',
  client: 'Client',
  bet: 'Bet',
  bonus_payment: 'Bonus payment',
  subscription: 'Bet4Me subscription',
  bet4me_plan: 'Bet4Me plan',
  user: 'Staff user',
  admin_grant: 'Admin rights',
  tips_post: 'Tips post',
  tips_subscriber: 'Tips subscriber',
  subscription_pause: 'Tips subscription pause',
  price_package: 'SMS tips price package',
  promo_code: 'Promo code',
  trial_use: 'Free trial',
  agent: 'Agent',
  agent_payout: "Agent's payout",
  sms_tip: 'SMS tip',
  sms_message: 'SMS message',
  broadcast: 'SMS broadcast',
  sms_opt_out: 'SMS opt-out',
  setting: 'Setting',
  bet_category: 'Bet category',
  post_category: 'Post category',
  image_type: 'Cover image type',
  winnings_content: 'Winnings & Results',
  tip_ticket: 'Tips ticket',
  tip_selection: 'Tips selection',
  marketing_consent: 'Marketing consent',
  privacy_subject: 'Person (privacy request)',
  privacy_request: 'Privacy request',
  data_breach: 'Data breach',
  self_exclusion: 'Self-exclusion',
  under_18_mark: 'Under-18 mark',
  refund: 'Refund',
  standing_order: 'Automatic renewal (Ratiba)',
  tax_device: 'Tax device (eTIMS)',
  tax_invoice: 'Tax invoice',
  books_period: 'Books period (a month of the books)',
  secrets_key: 'Secrets key',
  backup: 'Backup',
  compliance_item: 'Compliance item',
  age_declaration: '18+ declaration',
} as const satisfies Record<string, string>;

/** The entities Betdesk audits, for the filter's choices (the API accepts any name). */
export const AUDIT_ENTITIES = Object.keys(AUDIT_ENTITY_NAMES);

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** An audited record's kind in words: `price_package` -> "SMS tips price package". */
export function auditEntityName(entity: string): string {
  return (AUDIT_ENTITY_NAMES as Record<string, string>)[entity] ?? capitalised(entity.replace(/[_-]+/g, ' '));
}

/** An action code in words: `payment.claim` -> "Payment: claim", `bet-category.update` -> "Bet category: update". */
export function auditActionName(action: string): string {
  const words = (part: string) => part.replace(/[_-]+/g, ' ').trim();
  const dot = action.indexOf('.');
  if (dot < 0) return capitalised(words(action));
  return `${capitalised(words(action.slice(0, dot)))}: ${words(action.slice(dot + 1))}`;
}

/**
 * Reads of personal data, grouped under the audit screen's "sensitive" filter (Data Protection
 * Act, decision 025): a client's betting-platform passwords revealed, everything held about a phone
 * exported.
 */
export const SENSITIVE_AUDIT_ACTIONS = [
  'client.passwords-reveal',
  'privacy.export',
  // Money leaving the business (decision 036): every step of a refund and the initiator that sends it.
  'refund.request',
  'refund.approve',
  'refund.cancel',
  'refund.done',
  'refund.failed',
  'refund.unknown',
  'refund.held',
  'refund.initiator-save',
  // An agent's payout by B2C (decision 093): money leaving as refunds do.
  'agent-payout.request',
  'agent-payout.approve',
  'agent-payout.paid',
  'agent-payout.failed',
  'agent-payout.unknown',
  'agent-payout.held',
  // Admin rights asked, given or declined (decision 056): who may approve money out.
  'admin-grant.request',
  'admin-grant.approve',
  'admin-grant.decline',
  // A month of the books closed or reopened (decision 075): the figures filed with KRA.
  'books.close',
  'books.confirm-close',
  'books.reopen',
  'books.confirm-reopen',
] as const;

const Name = z.string().trim().max(64, 'At most 64 characters');

export const AuditQuery = PageQuery.extend({
  entity: Name.optional(),
  entity_id: z.string().trim().max(64, 'At most 64 characters').optional(),
  user_id: Id.optional(),
  action: Name.optional(),
  /** 1: only the reads of personal data (SENSITIVE_AUDIT_ACTIONS). */
  sensitive: z.literal('1', { message: 'Use sensitive=1 or leave it out' }).optional(),
  ...dateRangeFields,
}).refine(endsAfterStart, rangeOrderError);
export type AuditQuery = z.infer<typeof AuditQuery>;

/** One audit row: who did what to which record, with the values before and after. */
export const AuditEntry = z.object({
  id: z.number(),
  at: z.string(),
  user_id: z.number().nullable(),
  user_name: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  request_id: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const auditLog = endpoint({
  method: 'GET',
  path: '/api/audit',
  tag: 'audit',
  summary: `The audit trail, newest first, filtered by entity, record, user, action, sensitive reads (sensitive=1) and Nairobi days; total_records stops counting at ${COUNT_CAP} (total_capped)`,
  access: 'view:audit',
  query: AuditQuery,
  response: ListCounts.extend({
    total_capped: z.boolean(),
    entries: z.array(AuditEntry),
    users: z.array(z.object({ id: z.number(), name: z.string() })),
    /** Every action and every kind of record the trail holds, for the filter's selects. */
    actions: z.array(z.string()),
    entities: z.array(z.string()),
  }),
});
