import { eq } from 'drizzle-orm';
import { settingTexts, type Setting, type SettingForm, type SettingValue as WireValue } from '@betdesk/contract';
import type { z } from 'zod';
import { settings } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import * as q from './queries.ts';

/**
 * Business constants an admin may tune, with the defaults of BUSINESS-RULES.md. Domains add their
 * own entries here; boot seeds any that are missing without touching edited values.
 */
export const settingDefaults = {
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
  mpesa_pull_interval_hours: {
    value: 1,
    description: 'Hours between two Daraja Pull Transactions runs that recover payments whose callback never came (0: off)',
  },
  subscription_reminder_sms: {
    value: 'Hi {name}, your {package} subscription expires on {expiry}. Renew by M-Pesa to keep receiving it.',
    description: 'SMS sent the day before a subscription expires; {name}, {package} and {expiry} are filled in',
  },
  sms_promotional_window_start_hour: {
    value: 8,
    description: 'Promotional SMS (broadcasts, offers) leave from this hour, Africa/Nairobi (0-23)',
  },
  sms_promotional_window_end_hour: {
    value: 18,
    description: 'Promotional SMS are held from this hour until the window opens again, Africa/Nairobi (1-24)',
  },
  sms_opt_out_text: {
    value: 'STOP*456*9*5#',
    description: 'Added at the end of every promotional SMS: how to stop them',
  },
  sms_retry_hours: {
    value: 24,
    description:
      "Hours a message is retried on a transient failure (gateway outage, empty Africa's Talking balance) before it fails for good",
  },
  sms_cost_per_part_cents: {
    value: 80,
    description: "Estimated cost of one SMS part in cents (KES 0.80), for the broadcast preview",
  },
  tips_receipt_sms: {
    value: 'Thank you {name}. KES {amount} received ({receipt}). Your {package} tips run until {expiry}.',
    description: 'SMS to a payer whose payment started a tips package; {name}, {amount}, {receipt}, {package} and {expiry} are filled in',
  },
  tips_credit_sms: {
    value: 'KES {amount} received ({receipt}) and kept as credit on your account. {prices}',
    description: 'SMS to a payer whose payment matched no package price; {amount}, {receipt} and {prices} are filled in',
  },
  tips_prices_sms: {
    value: '{category} tips: {packages}. Pay by M-Pesa with account number {code}.',
    description: "A category's prices and how to pay (keyword reply, credit SMS); {category}, {packages} and {code} are filled in",
  },
  sms_help_reply: {
    value: 'Betdesk tips: send a category code (e.g. D2) for prices, STOP to stop messages, START to receive them again.',
    description: 'Reply to HELP or any text the system does not understand',
  },
  sms_stop_reply: {
    value: 'You will receive no more tips or offers from us. Send START to receive them again.',
    description: 'Reply to STOP',
  },
  sms_stop_category_reply: {
    value: 'You will receive no more {category} tips. Send START to receive them again.',
    description: 'Reply to STOP <code>; {category} is filled in',
  },
  sms_start_reply: {
    value: 'Welcome back: you will receive the tips you pay for again. Send YES to also get our offers, STOP to stop messages.',
    description: 'Reply to START',
  },
  ussd_welcome: {
    value: 'Betdesk tips',
    description: 'First line of the USSD main menu (the first 40 characters are shown)',
  },
  ussd_pay_instructions_sms: {
    value: 'To pay for {package}: M-Pesa > Lipa na M-Pesa > Pay Bill, business number {paybill}, account number {code}, amount {amount}.',
    description:
      'SMS to a USSD buyer when no STK push can be sent (M-Pesa not configured or refused); {package}, {paybill}, {code} and {amount} are filled in',
  },
  marketing_consent_wording: {
    value: 'Yes, send me offers and news of new tips by SMS. I can stop them at any time by sending STOP.',
    description: 'What a person agrees to when they give marketing consent (portal, SMS YES, USSD); stored with each consent',
  },
  sms_yes_reply: {
    value: 'Thank you: you will receive our offers by SMS. Send STOP at any time to stop them.',
    description: 'Reply to YES (marketing consent given)',
  },
  privacy_request_days: {
    value: 7,
    description: "Days to answer a person's request to see, correct or erase their data (Data Protection (General) Regulations 2021)",
  },
  privacy_retention_years: {
    value: 5,
    description: 'People with no subscription, payment, message or sign-in for this many years are pseudonymised by the daily retention job',
  },
  sms_text_retention_days: {
    value: 730,
    description: "Days an SMS's text is kept; older texts are emptied by the daily retention job (the message's metadata stays)",
  },
  portal_business_name: {
    value: 'Betdesk Tips',
    description: 'The business name shown on every page of the subscriber portal and in its sign-in SMS',
  },
  portal_support_phone: {
    value: '0700000000',
    description: 'The support phone shown on the help page and at the foot of every portal page',
  },
  portal_description: {
    value: 'Premium football betting tips by SMS and on the web, paid by M-Pesa.',
    description: "The portal home page's description for search engines",
  },
  portal_code_sms: {
    value: 'Your {business} sign-in code is {code}. It works for 10 minutes. Do not share it.',
    description: 'The SMS carrying a portal sign-in code; {business} and {code} are filled in',
  },
  portal_codes_per_phone: {
    value: 5,
    description: 'Portal sign-in codes one phone may ask for in the window before 429',
  },
  portal_codes_per_ip: {
    value: 30,
    description: 'Portal sign-in codes one IP address may ask for in the window before 429',
  },
  recovery_retry_delay_minutes: {
    value: 10,
    description: 'Minutes after a payment request failed because the phone did not answer (1037) or was busy (1001) before it is tried once more',
  },
  recovery_reminder_hour: {
    value: 9,
    description: 'Hour (Africa/Nairobi, 0-23) of the day after a payment request failed for lack of money (1) or was cancelled (1032) when one reminder SMS is sent',
  },
  retention_grace_days: {
    value: 3,
    description: 'Days after a subscription ends within which buying the same category and medium again still counts as a renewal (Reports → Retention)',
  },
  portal_code_window_minutes: {
    value: 60,
    description: 'Window for counting portal sign-in codes asked for',
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

/** Bounds of the numeric settings; a number setting not listed here takes a whole number from 0. */
const numberBounds: Partial<Record<SettingKey, { min: number; max: number; unit?: string }>> = {
  bonus_rate_percent: { min: 0, max: 100, unit: '%' },
  login_max_failures_per_email: { min: 1, max: 1000 },
  login_max_failures_per_ip: { min: 1, max: 100_000 },
  login_window_minutes: { min: 1, max: 1440, unit: 'minutes' },
  mpesa_pull_interval_hours: { min: 0, max: 24, unit: 'hours' },
  sms_promotional_window_start_hour: { min: 0, max: 23 },
  sms_promotional_window_end_hour: { min: 1, max: 24 },
  sms_retry_hours: { min: 1, max: 168, unit: 'hours' },
  privacy_request_days: { min: 1, max: 30, unit: 'days' },
  privacy_retention_years: { min: 1, max: 20, unit: 'years' },
  sms_text_retention_days: { min: 30, max: 3650, unit: 'days' },
  portal_codes_per_phone: { min: 1, max: 1000 },
  portal_codes_per_ip: { min: 1, max: 100_000 },
  portal_code_window_minutes: { min: 1, max: 1440, unit: 'minutes' },
  retention_grace_days: { min: 0, max: 60, unit: 'days' },
  recovery_retry_delay_minutes: { min: 1, max: 1440, unit: 'minutes' },
  recovery_reminder_hour: { min: 0, max: 23 },
};
const DEFAULT_NUMBER_MAX = 1_000_000_000;
const TEXT_MAX = 1000;

function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(settingDefaults, key);
}

/** The `{name}` placeholders a text must keep: those of its seeded default. */
function placeholdersOf(text: string): string[] {
  return [...new Set(text.match(/\{[a-z_]+\}/g) ?? [])];
}

/**
 * The value an admin typed, as the setting stores it, or a 422 on `value` saying what is wrong.
 * The kind of a setting is the kind of its default: a number stays a whole number within its
 * bounds, a switch a boolean, a text non-empty with the placeholders the code fills in.
 */
export function checkSettingValue(key: SettingKey, raw: WireValue): SettingValue<SettingKey> {
  const fallback: unknown = settingDefaults[key].value;
  if (typeof fallback === 'number') {
    const text = typeof raw === 'string' ? raw.trim() : raw;
    if (text === '') throw fieldError('value', 'A number is required');
    const value = typeof text === 'string' ? Number(text) : text;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw fieldError('value', 'The value must be a number');
    const bounds = numberBounds[key] ?? { min: 0, max: DEFAULT_NUMBER_MAX };
    if (!Number.isInteger(value)) throw fieldError('value', 'The value must be a whole number');
    if (value < bounds.min || value > bounds.max) {
      const unit = bounds.unit ? ` ${bounds.unit}` : '';
      throw fieldError('value', `The value must be between ${bounds.min} and ${bounds.max}${unit}`);
    }
    return value;
  }
  if (typeof fallback === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    throw fieldError('value', 'The value must be on (true) or off (false)');
  }
  if (typeof raw !== 'string' || raw.trim() === '') throw fieldError('value', 'The text is required');
  const text = raw.trim();
  if (text.length > TEXT_MAX) throw fieldError('value', `The text may not be longer than ${TEXT_MAX} characters`);
  const missing = placeholdersOf(String(fallback)).filter((p) => !text.includes(p));
  if (missing.length > 0) {
    throw fieldError('value', `The text must keep ${missing.join(', ')}: the system fills ${missing.length === 1 ? 'it' : 'them'} in`);
  }
  return text;
}

/** Every setting with its description, in the order of the defaults. */
export async function listSettings(db: Queryable): Promise<Setting[]> {
  const order = Object.keys(settingDefaults);
  const found = await q.listSettings(db);
  return found
    .filter((s) => isSettingKey(s.key))
    .sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key))
    .map((s) => ({ ...s, value: s.value as WireValue }));
}

/** Changes one setting after checking its value; audited with before and after. */
export async function updateSetting(
  deps: AppDeps,
  actor: Actor,
  form: z.output<typeof SettingForm>,
  requestId: string,
): Promise<{ info: string }> {
  if (!isSettingKey(form.key)) throw fieldError('key', settingTexts.unknownKey);
  const key = form.key;
  const value = checkSettingValue(key, form.value);
  await deps.db.transaction(async (tx) => {
    const before = await q.lockSetting(tx, key);
    if (before === undefined) {
      await ensureSettingDefaults(tx);
    }
    await q.saveSetting(tx, key, value, actor.userId);
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'setting.update',
      entity: 'setting',
      entityId: key,
      before: { value: before === undefined ? settingDefaults[key].value : before },
      after: { value },
      requestId,
    });
  });
  return { info: settingTexts.saved };
}
