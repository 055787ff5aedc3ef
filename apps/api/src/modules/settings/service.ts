import { eq } from 'drizzle-orm';
import { settings } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/**
 * Business constants an admin may tune, with the defaults of BUSINESS-RULES.md. Domains add their
 * own entries here; boot seeds any that are missing without touching edited values.
 */
export const settingDefaults = {
  support_phone: { value: '0700 000 000', description: 'Support line shown in the footer' },
  login_max_failures_per_email: { value: 5, description: 'Failed sign-ins per email in the window before 429' },
  login_max_failures_per_ip: { value: 20, description: 'Failed sign-ins per IP address in the window before 429' },
  login_window_minutes: { value: 15, description: 'Window for counting failed sign-ins' },
  temporary_password_sms: {
    value: 'Welcome to Betdesk, {name}. Sign in with {email} and the temporary password {password}, then change it under My Profile.',
    description: 'SMS sent to a newly registered user; {name}, {email} and {password} are filled in',
  },
  bonus_rate_percent: { value: 30, description: 'Share of a winning bet\'s profit the client owes as bonus, in percent' },
  mpesa_validate_account: {
    value: false,
    description: 'C2B validation refuses a payment whose account number names no bet category, client or phone (off: accept all)',
  },
  subscription_reminder_sms: {
    value: 'Hi {name}, your {package} subscription expires on {expiry}. Renew by M-Pesa to keep receiving it.',
    description: 'SMS sent the day before a subscription expires; {name}, {package} and {expiry} are filled in',
  },
} satisfies Record<string, { value: unknown; description: string }>;

export type SettingKey = keyof typeof settingDefaults;
type SettingValue<K extends SettingKey> = (typeof settingDefaults)[K]['value'];

export async function ensureSettingDefaults(db: Queryable): Promise<void> {
  const rows = Object.entries(settingDefaults).map(([key, d]) => ({
    key,
    value: d.value,
    description: d.description,
  }));
  await db.insert(settings).values(rows).onConflictDoNothing({ target: settings.key });
}

export async function getSetting<K extends SettingKey>(db: Queryable, key: K): Promise<SettingValue<K>> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return (row?.value ?? settingDefaults[key].value) as SettingValue<K>;
}
