import { z } from 'zod';
import { ComplianceItem } from './compliance-items.ts';
import { endpoint } from './endpoint.ts';

// The admin dashboard's alerts in one answer (decision 078). A file of its own, holding only what the
// alerts draw: the dashboard's admin chunk reads it without loading the schemas of the screens each
// fact comes from (reconciliation, backups, tax, SMS, privacy, users). Each part is null when its
// fact could not be read: that alert is then not shown, the others are.

export const AdminAlerts = z.object({
  /** The last nightly money check (null: never ran); its failed checks by name. */
  money_check: z.object({ ok: z.boolean(), failures: z.array(z.object({ check: z.string() })) }).nullable(),
  /** The backup job's health: the banner's text when the last backup failed or none for 26 hours. */
  backup: z.object({ alert: z.string().nullable() }).nullable(),
  /** Tax invoicing: the banner's text when it is off or invoices are late. */
  tax: z.object({ invoicing_on: z.boolean(), alert: z.string().nullable() }).nullable(),
  /** Documents KRA rejected, or not accepted within tax_transmission_alert_hours. */
  tax_transmissions: z.object({ rejected: z.number(), older_than_alert: z.number(), alert_hours: z.number() }).nullable(),
  /** The SMS gateway: messages being retried, per cause, and the refusal (its text) while current. */
  sms: z
    .object({
      retrying: z.number(),
      oldest_retrying_on: z.string().nullable(),
      causes: z.array(z.object({ cause: z.string(), retrying: z.number() })),
      refusal: z.object({ text: z.string(), reason: z.string().nullable(), at: z.string() }).nullable(),
    })
    .nullable(),
  /** Each SMS provider's circuit (decision 062). */
  sms_providers: z
    .array(z.object({ provider: z.string(), state: z.enum(['closed', 'open', 'half-open']), reason: z.string().nullable(), since: z.string().nullable() }))
    .nullable(),
  /** Data-protection requests past their deadline, and breaches whose 72 hours run. */
  privacy: z.object({ overdue_requests: z.number(), breaches: z.array(z.object({ id: z.number(), description: z.string(), notify_by: z.string() })) }).nullable(),
  /** Admin rights waiting for a second admin, and those given within the cooling-off days (decision 056). */
  admin_grants: z
    .object({
      pending: z.array(z.object({ id: z.number(), user_name: z.string(), requested_by: z.string().nullable(), requested_at: z.string() })),
      given: z.array(
        z.object({ id: z.number(), user_name: z.string(), requested_by: z.string().nullable(), decided_by: z.string().nullable(), decided_at: z.string().nullable() }),
      ),
    })
    .nullable(),
  /** Every compliance item (decision 060): the alert lists those not ok, the dialog all of them. */
  compliance: z.object({ items: z.array(ComplianceItem) }).nullable(),
});
export type AdminAlerts = z.infer<typeof AdminAlerts>;

export const dashboardAdminAlerts = endpoint({
  method: 'GET',
  path: '/api/dashboard/admin-alerts',
  tag: 'dashboard',
  summary: "Every alert of the admin's dashboard in one answer: money check, backups, tax, KRA, SMS gateway and providers, privacy, admin rights, compliance",
  access: 'view:admin-alerts',
  response: AdminAlerts,
});
