import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { BusinessDay } from './lists.ts';
import { ComplianceItem } from './compliance-items.ts';

export * from './compliance-items.ts';

// The compliance calendar on the admin dashboard (decision 060): what the business must hold to keep
// its paybill and sender ids (the ODPC certificate, the data-protection officer, each sender id's
// registration per operator, the paybill's name) and the counsel's view on licensing. A file of its
// own: the dashboard's alert chunk reads it without loading other screens' schemas.

/** The ODPC registration certificate runs 24 months from its issue; the reminder starts 60 days before. */
export const ODPC_VALID_MONTHS = 24;
export const COMPLIANCE_REMINDER_DAYS = 60;

/** The mobile operators a sender id is registered with, one registration each. */
export const SENDER_ID_OPERATORS = ['safaricom', 'airtel', 'telkom'] as const;
export type SenderIdOperator = (typeof SENDER_ID_OPERATORS)[number];
export const SENDER_ID_OPERATOR_NAMES: Record<SenderIdOperator, string> = { safaricom: 'Safaricom', airtel: 'Airtel', telkom: 'Telkom' };

/** An item's key: one of the fixed items, or `sender_id.<SENDER>.<operator>`. */
export const ComplianceKey = z
  .string()
  .regex(/^(odpc_registration|dpo|paybill_name|counsel_tips|counsel_bet4me|sender_id\.[A-Za-z0-9 _-]{1,11}\.(safaricom|airtel|telkom))$/, 'No such compliance item');


export const complianceCalendar = endpoint({
  method: 'GET',
  path: '/api/compliance/calendar',
  tag: 'compliance',
  summary: 'The compliance calendar: each item with its dates and status; missing, due and overdue ones are the dashboard alert (admin)',
  access: 'manage:compliance',
  response: z.object({ today: z.string(), alerts: z.number(), items: z.array(ComplianceItem) }),
});

const OptionalDay = z.union([BusinessDay, z.literal('').transform(() => null), z.null()]).optional();

export const ComplianceItemForm = z.object({
  value: z.string().trim().min(1, 'Enter what is recorded').max(2000),
  issued_on: OptionalDay,
  expires_on: OptionalDay,
  note: z.string().trim().max(2000).nullable().optional(),
});
export type ComplianceItemForm = z.input<typeof ComplianceItemForm>;

export const updateComplianceItem = endpoint({
  method: 'PUT',
  path: '/api/compliance/items/:key',
  tag: 'compliance',
  summary: 'Records a compliance item (admin, audited): what it is, its date, its end where the admin enters one',
  access: 'manage:compliance',
  body: ComplianceItemForm,
  response: z.object({ info: z.string(), item: ComplianceItem }),
});

export const complianceTexts = {
  saved: 'Compliance item saved.',
  noSuchItem: 'No such compliance item',
  dateRequired: 'Enter the date',
  dateInFuture: 'This date is in the future',
  expiryComputed: 'This end is worked out from the date: leave it empty',
  expiryNotKept: 'This item has no end date',
  expiryBeforeDate: 'The end is before the date',
} as const;

/** `day` (YYYY-MM-DD) plus whole months, the day clamped to the month's last (2024-02-29 + 24 months = 2026-02-28). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}
