import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Id, PageQuery } from './common.ts';
import { dateRangeFields, endsAfterStart, rangeOrderError } from './date-range.ts';
import { COUNT_CAP, ListCounts } from './lists.ts';


/** The entities Betdesk audits, for the filter's choices (the API accepts any name). */
export const AUDIT_ENTITIES = [
  'mpesa_payment',
  'client',
  'bet',
  'bonus_payment',
  'subscription',
  'user',
  'tips_post',
  'tips_subscriber',
  'price_package',
  'sms_tip',
  'sms_message',
  'stk_request',
  'setting',
  'bet_category',
  'post_category',
  'bet4me_plan',
  'image_type',
  'winnings_content',
] as const;

const Name = z.string().trim().max(64, 'At most 64 characters');

export const AuditQuery = PageQuery.extend({
  entity: Name.optional(),
  entity_id: z.string().trim().max(64, 'At most 64 characters').optional(),
  user_id: Id.optional(),
  action: Name.optional(),
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
  summary: `The audit trail, newest first, filtered by entity, record, user, action and Nairobi days; total_records stops counting at ${COUNT_CAP} (total_capped)`,
  access: 'view:audit',
  query: AuditQuery,
  response: ListCounts.extend({
    total_capped: z.boolean(),
    entries: z.array(AuditEntry),
    users: z.array(z.object({ id: z.number(), name: z.string() })),
  }),
});
