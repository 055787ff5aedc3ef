import { z } from 'zod';

// One compliance item as the calendar lists it (decision 060), apart from compliance.ts so that the
// dashboard's admin alerts read it without the edit form's schemas (and the day parser they need).

/**
 * How an item's end is known: `computed` from its date (the ODPC certificate), `entered` by the admin
 * (a sender id's registration, a counsel's view to review), or `none`.
 */
export const COMPLIANCE_EXPIRY_KINDS = ['computed', 'entered', 'none'] as const;

/** missing: not recorded; due: its end is within the reminder days; overdue: its end has passed. */
export const COMPLIANCE_STATUSES = ['missing', 'ok', 'due', 'overdue'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

export const ComplianceItem = z.object({
  key: z.string(),
  label: z.string(),
  value_label: z.string(),
  date_label: z.string().nullable(),
  date_required: z.boolean(),
  expiry: z.enum(COMPLIANCE_EXPIRY_KINDS),
  expiry_label: z.string().nullable(),
  value: z.string().nullable(),
  issued_on: z.string().nullable(),
  expires_on: z.string().nullable(),
  remind_from: z.string().nullable(),
  note: z.string().nullable(),
  status: z.enum(COMPLIANCE_STATUSES),
  updated_by: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type ComplianceItem = z.infer<typeof ComplianceItem>;
