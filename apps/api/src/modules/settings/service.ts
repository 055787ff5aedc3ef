import { settingTexts, unicodeCharacters, type Setting, type SettingForm, type SettingValue as WireValue, refusalTexts } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { jsonValue, type TypedColumn } from '../../db/columns.ts';
import type { StaffFormAction } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import { editableTexts, isEditableText, isLanguage, LANGUAGES, type EditableTextId, type Language } from '../../customer-texts/catalogue.ts';
import { placeholdersOf } from '../../customer-texts/format.ts';
import { portalTexts, TRUST_PAGE_VALUES, trustPageDefaults } from '../../customer-texts/portal.ts';
import { bannedClaimsIn, refuse, responsibleGamblingLines } from '../advert-rules/service.ts';
import * as q from './queries.ts';

/**
 * An editable customer text's two settings, English under the id and Kiswahili under `<id>_sw`,
 * seeded from the catalogue (apps/api/src/customer-texts).
 */
function textSettings<K extends EditableTextId>(id: K): Record<K | `${K}_sw`, { value: string; description: string }> {
  const { en, sw, editable } = editableTexts[id];
  return {
    [id]: { value: en, description: `${editable} (English)` },
    [`${id}_sw`]: { value: sw, description: `${editable} (Kiswahili)` },
  } as Record<K | `${K}_sw`, { value: string; description: string }>;
}

type TrustPage = keyof typeof trustPageDefaults;

/** A portal trust page's two settings (English under its key, Kiswahili under `<key>_sw`), seeded from the catalogue. */
function trustPageSettings<K extends TrustPage>(key: K, what: string): Record<K | `${K}_sw`, { value: string; description: string }> {
  const { en, sw } = trustPageDefaults[key];
  const how = `one paragraph per blank line, "# " starts a heading, "- " a list item; {${TRUST_PAGE_VALUES.join('}, {')}} are filled in`;
  return {
    [key]: { value: en, description: `${what} (English): ${how}` },
    [`${key}_sw`]: { value: sw, description: `${what} (Kiswahili): ${how}` },
  } as Record<K | `${K}_sw`, { value: string; description: string }>;
}

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
  mpesa_ratiba_enabled: {
    value: false,
    description:
      'Automatic renewal by M-Pesa Ratiba standing orders (on only once Safaricom has enabled Ratiba for the paybill; off: the option is shown nowhere)',
  },
  mpesa_validate_account: {
    value: false,
    description: 'C2B validation refuses a payment whose account number names no bet category, client or phone (off: accept all)',
  },
  tax_invoice_bonus_payments: {
    value: false,
    description: "A client's bonus payment is the business's income and gets a KRA tax invoice like a sale (on only if the accountant says so; off: bonus payments are not invoiced)",
  },
  tax_transmission_alert_hours: {
    value: 24,
    description: 'Hours an invoice or credit note may wait for KRA to accept it before the dashboard alerts (a rejected one alerts at once)',
  },
  receipt_sms_invoice_line: {
    value: false,
    description: 'The receipt SMS of a tips sale ends with its KRA tax invoice number ("Invoice 123"; its KRA QR is on the portal). About 15 more characters, which can make the SMS two parts (off: no line)',
  },
  // Referrals and agents (decision 088).
  referral_free_days: { value: 7, description: "Free days a subscriber gets when someone they referred makes a first purchase with their referral code and it is not refunded within the hold" },
  referral_hold_days: { value: 14, description: 'Days a referred first purchase must go unrefunded before its referrer gets the free days' },
  referral_same_name_days: {
    value: 90,
    description: 'Days back a referral is refused as self-referral when the referrer and the new buyer paid from the same M-Pesa name',
  },
  agent_commission_percent: { value: 10, description: "An agent's commission on each payment of a person they referred, in percent" },
  agent_commission_months: { value: 6, description: 'Months after the first purchase during which a referred person\'s payments earn their agent commission' },
  mpesa_pull_interval_hours: {
    value: 1,
    description: 'Hours between two Daraja Pull Transactions runs that recover payments whose callback never came (0: off)',
  },
  ...textSettings('subscription_reminder_sms'),
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
    description:
      "Price of one SMS part at the primary provider (Africa's Talking) in cents (KES 0.80): the SMS composers' cost, the broadcast preview and its confirmation, the cost report",
  },
  // The second aggregator and each provider's circuit (decision 062).
  sms_failover_cost_per_part_cents: {
    value: 60,
    description:
      'Price of one SMS part at the second provider (SMS_FAILOVER_PROVIDER, Advanta) in cents: the composers\' cost while SMS go through it, and the cost report',
  },
  sms_circuit_failures: {
    value: 5,
    description: 'Consecutive transient failures (unreachable, gateway errors) of an SMS provider that open its circuit: SMS go through the other provider',
  },
  sms_circuit_probe_seconds: {
    value: 120,
    description: 'Seconds an open SMS provider circuit waits before one probe batch is tried through it (it closes when the probe is taken)',
  },
  sms_circuit_delivered_percent: {
    value: 50,
    description: "An SMS provider's circuit opens when the delivered share of its last 15 minutes' delivery reports is below this percentage",
  },
  sms_circuit_min_reports: {
    value: 50,
    description: "Delivery reports of the last 15 minutes a provider needs before its delivered share can open its circuit",
  },
  sms_low_balance_kes: {
    value: 200,
    description: "An SMS provider's polled balance below this many KES opens its circuit before sends fail",
  },
  sms_dlr_pull_minutes: {
    value: 30,
    description: 'Minutes after sending a message with no delivery report is asked of its provider (getdlr), where the provider offers it',
  },
  sms_promotional_waits_for_primary: {
    value: false,
    description: 'On: promotional SMS wait for the primary provider while it is down instead of going through the second one',
  },
  broadcast_cost_confirm_kes: {
    value: 1_000,
    description: 'KES a broadcast may cost (recipients × SMS parts × cost of a part) before sending it needs a confirmation of the figure',
  },
  ...textSettings('tips_receipt_sms'),
  ...textSettings('tips_credit_sms'),
  ...textSettings('tips_prices_sms'),
  ...textSettings('sms_help_reply'),
  ...textSettings('sms_stop_reply'),
  ...textSettings('sms_stop_category_reply'),
  ...textSettings('sms_start_reply'),
  ussd_welcome: {
    value: 'Betdesk tips',
    description: 'First line of the USSD main menu (the first 40 characters are shown)',
  },
  ...textSettings('ussd_pay_instructions_sms'),
  ...textSettings('marketing_consent_wording'),
  ...textSettings('sms_yes_reply'),
  ...textSettings('sms_language_reply'),
  customer_language_default: {
    value: 'en' as Language,
    description: 'The language of customers who never chose one (SMS, USSD, portal): en (English) or sw (Kiswahili)',
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
    value: portalTexts['portal.home.description'].en,
    description: "The portal home page's line under the business name and its description for search engines (English)",
  },
  portal_description_sw: {
    value: portalTexts['portal.home.description'].sw,
    description: "The portal home page's line under the business name and its description for search engines (Kiswahili)",
  },
  ...textSettings('portal_code_sms'),
  portal_ussd_code: {
    value: '',
    description: 'The USSD code punters dial (e.g. *384*123#), shown on the portal home and help pages; empty: not shown',
  },
  portal_licence_line: {
    value: '',
    description: "The business's licence or registration line, shown at the foot of every portal page; empty: not shown",
  },
  portal_responsible_gambling: {
    value: portalTexts['portal.responsible_gambling'].en,
    description: "The responsible-gambling line on every portal page, beside the 18+ mark; left as it is, Kiswahili readers see the catalogue's Kiswahili",
  },
  ...trustPageSettings('portal_terms', 'The portal terms page'),
  ...trustPageSettings('portal_refund_policy', 'The portal refund policy page'),
  ...trustPageSettings('portal_privacy_notice', 'The portal privacy notice page (Data Protection Act: who holds the data, what for, consent, rights, retention)'),
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
  subscription_pause_max_days: {
    value: 7,
    description: 'Days a subscriber may pause a running weekly or monthly tips subscription, once per subscription, on the portal, USSD or by SMS (0: pausing is off)',
  },
  retention_grace_days: {
    value: 3,
    description: 'Days after a subscription ends within which buying the same category and medium again still counts as a renewal (Reports → Retention)',
  },
  portal_code_window_minutes: {
    value: 60,
    description: 'Window for counting portal sign-in codes asked for',
  },
  refund_daily_limit_kes: {
    value: 10_000,
    description: 'KES refunded per Nairobi day before a refund needs a further admin approval (beyond the first approver)',
  },
  admin_cooling_off_days: {
    value: 7,
    description: 'Days after admin rights given in the web take effect before the new admin may approve refunds or admin rights (1 to 90)',
  },
  mpesa_utility_low_balance_kes: {
    value: 2_000,
    description: "Below this many KES in the M-Pesa utility account (B2C refunds are paid from it), the Refunds screen warns",
  },
  refund_result_wait_minutes: {
    value: 10,
    description: "Minutes to wait for M-Pesa's result of a refund before its end is unknown and a Transaction Status query asks",
  },
  refund_unknown_alert_hours: {
    value: 24,
    description: 'Hours after sending that a refund still unknown (its status queries unanswered) is shown to admins to check on the M-Pesa statement and mark (0: at once)',
  },
  rg_self_exclusion: {
    value: true,
    description:
      'Self-exclusion (Gambling Control Act 2025): a person who excluded themselves gets no promotional SMS, reminder or renewal and no new sale until it ends (turning it off needs a reason)',
  },
  rg_under_18_block: {
    value: true,
    description: 'A person staff mark as under 18 is refused every sale; what they pay is kept for a refund (turning it off needs a reason)',
  },
  rg_age_gate: {
    value: true,
    description:
      "A first purchase needs an 18+ declaration: a tick on the portal, a confirm screen on USSD, a reply of 18 after a paybill payment from a new phone (turning it off needs a reason)",
  },
  age_declaration_grace_hours: {
    value: 72,
    description:
      'Hours a paybill payment from a phone that never declared it is 18 or older waits for its reply of 18 before it is kept for a refund instead of sold (with rg_age_gate on)',
  },
  rg_promotion_rules: {
    value: true,
    description:
      'Promotional SMS end with the responsible-gambling lines and are refused when they hold a banned claim (income, guaranteed, sure win ...) (turning it off needs a reason)',
  },
  // The sports-data feed (decision 070).
  feed_leagues: {
    value: '39,140,135',
    description:
      "League ids of the sports-data feed the business follows, comma-separated (API-Football: 39 Premier League, 140 La Liga, 135 Serie A): their fixtures are kept locally for the ticket screen's picker",
  },
  feed_calendar_year_leagues: {
    value: '',
    description:
      'Of the followed leagues, those whose season is the calendar year (API-Football names their season by the year, e.g. 253 MLS, 71 Brazil Série A), comma-separated; empty: every league runs August to May',
  },
  feed_sync_days_ahead: {
    value: 7,
    description: 'Days ahead whose fixtures the feed sync keeps locally (each followed league costs one request per sync)',
  },
  feed_odds_bookmaker: {
    value: '',
    description: "The bookmaker whose price is a leg's odds when a ticket is published (its name as the feed spells it, e.g. Bet365); empty: the median of the feed's bookmakers",
  },
  feed_odds_tolerance_percent: {
    value: 5,
    description: "How far above the feed's price typed odds may be, in percent; higher odds are refused or kept as unverified (next setting)",
  },
  feed_odds_refuse_above: {
    value: true,
    description: "Typed odds too far above the feed's price refuse the ticket (422 naming the leg's odds); off: the ticket is stored with those legs marked unverified",
  },
  feed_void_postponed_hours: {
    value: 72,
    description: 'Hours after a fixture was postponed (and not played) when the feed proposes its legs void',
  },
  feed_void_abandoned_hours: {
    value: 36,
    description: 'Hours after a fixture was abandoned or suspended (and not finished) when the feed proposes its legs void',
  },
  feed_void_cancelled_hours: {
    value: 0,
    description: 'Hours after a fixture was cancelled when the feed proposes its legs void (0: at once)',
  },
} satisfies Record<string, { value: unknown; description: string }>;

/**
 * Safeguards for customers (decision 065): switches that are on by default, and that an admin turns
 * off only with a reason of at least SAFEGUARD_REASON_MIN characters, kept beside the value (shown on
 * the Settings screen) and in the audit log. A module that adds a safeguard adds its key here.
 */
export const safeguardKeys = ['rg_self_exclusion', 'rg_under_18_block', 'rg_age_gate', 'rg_promotion_rules'] as const satisfies readonly (keyof typeof settingDefaults)[];
export const SAFEGUARD_REASON_MIN = 10;
const isSafeguard = (key: string) => (safeguardKeys as readonly string[]).includes(key);

export type SettingKey = keyof typeof settingDefaults;
type SettingValue<K extends SettingKey> = (typeof settingDefaults)[K]['value'];

/**
 * Values kept in the settings table that are not on the settings screen: a module writes them by
 * its own rules (a sealed secret, a reading from M-Pesa). Never listed, never audited with their value.
 */
export const privateSettings = {
  mpesa_initiator: "The M-Pesa initiator of refunds: name, certificate and password (sealed); set on the Refunds screen",
  mpesa_utility_balance: "The M-Pesa utility account's balance as the last B2C result reported it",
} as const;
export type PrivateSettingKey = keyof typeof privateSettings;

export async function readPrivateSetting<T>(db: Queryable, key: PrivateSettingKey): Promise<T | null> {
  return ((await q.settingValue(db, key)) as T | undefined) ?? null;
}

export function savePrivateSetting(db: Queryable, key: PrivateSettingKey, value: unknown, userId: number | null): Promise<void> {
  return q.upsertSetting(db, { key, value, description: privateSettings[key], updatedBy: userId });
}

export function ensureSettingDefaults(db: Queryable): Promise<void> {
  return q.insertMissingSettings(
    db,
    Object.entries(settingDefaults).map(([key, d]) => ({ key, value: d.value, description: d.description })),
  );
}

export async function getSetting<K extends SettingKey>(db: Queryable, key: K): Promise<SettingValue<K>> {
  return ((await q.settingValue(db, key)) ?? settingDefaults[key].value) as SettingValue<K>;
}

/** Several settings in one read (a payment's rules need a few at once; one round trip, not one each). */
export async function getSettings<K extends SettingKey>(db: Queryable, keys: readonly K[]): Promise<{ [P in K]: SettingValue<P> }> {
  const stored = await q.settingValues(db, keys);
  return Object.fromEntries(keys.map((k) => [k, stored.get(k) ?? settingDefaults[k].value])) as { [P in K]: SettingValue<P> };
}

/**
 * Several settings read as a column of another read (e.g. beside the rows a payment's rules read
 * anyway), read back with the defaults, as `getSettings` does.
 */
export function settingsColumn<K extends SettingKey>(keys: readonly K[]): TypedColumn<{ [P in K]: SettingValue<P> }> {
  return {
    sql: q.settingValuesColumn(keys),
    read(stored) {
      const found = (jsonValue(stored) ?? {}) as Record<string, unknown>;
      return Object.fromEntries(keys.map((k) => [k, found[k] ?? settingDefaults[k].value])) as { [P in K]: SettingValue<P> };
    },
  };
}

/** Bounds of the numeric settings; a number setting not listed here takes a whole number from 0. */
const numberBounds: Partial<Record<SettingKey, { min: number; max: number; unit?: string }>> = {
  bonus_rate_percent: { min: 0, max: 100, unit: '%' },
  login_max_failures_per_email: { min: 1, max: 1000 },
  login_max_failures_per_ip: { min: 1, max: 100_000 },
  login_window_minutes: { min: 1, max: 1440, unit: 'minutes' },
  mpesa_pull_interval_hours: { min: 0, max: 24, unit: 'hours' },
  tax_transmission_alert_hours: { min: 1, max: 720, unit: 'hours' },
  sms_promotional_window_start_hour: { min: 0, max: 23 },
  sms_promotional_window_end_hour: { min: 1, max: 24 },
  sms_retry_hours: { min: 1, max: 168, unit: 'hours' },
  sms_failover_cost_per_part_cents: { min: 0, max: 10_000 },
  sms_circuit_failures: { min: 1, max: 100 },
  sms_circuit_probe_seconds: { min: 10, max: 3600, unit: 'seconds' },
  sms_circuit_delivered_percent: { min: 0, max: 100, unit: '%' },
  sms_circuit_min_reports: { min: 1, max: 100_000 },
  sms_low_balance_kes: { min: 0, max: 1_000_000, unit: 'KES' },
  sms_dlr_pull_minutes: { min: 5, max: 1440, unit: 'minutes' },
  privacy_request_days: { min: 1, max: 30, unit: 'days' },
  privacy_retention_years: { min: 1, max: 20, unit: 'years' },
  sms_text_retention_days: { min: 30, max: 3650, unit: 'days' },
  portal_codes_per_phone: { min: 1, max: 1000 },
  portal_codes_per_ip: { min: 1, max: 100_000 },
  portal_code_window_minutes: { min: 1, max: 1440, unit: 'minutes' },
  refund_result_wait_minutes: { min: 1, max: 1440, unit: 'minutes' },
  refund_unknown_alert_hours: { min: 0, max: 720, unit: 'hours' },
  age_declaration_grace_hours: { min: 1, max: 720, unit: 'hours' },
  // Never off: a new admin made through the web always waits a day at least (decision 056).
  admin_cooling_off_days: { min: 1, max: 90, unit: 'days' },
  broadcast_cost_confirm_kes: { min: 0, max: 100_000_000, unit: 'KES' },
  retention_grace_days: { min: 0, max: 60, unit: 'days' },
  subscription_pause_max_days: { min: 0, max: 30, unit: 'days' },
  recovery_retry_delay_minutes: { min: 1, max: 1440, unit: 'minutes' },
  recovery_reminder_hour: { min: 0, max: 23 },
  feed_sync_days_ahead: { min: 1, max: 14, unit: 'days' },
  feed_odds_tolerance_percent: { min: 0, max: 100, unit: '%' },
  feed_void_postponed_hours: { min: 0, max: 720, unit: 'hours' },
  feed_void_abandoned_hours: { min: 0, max: 720, unit: 'hours' },
  feed_void_cancelled_hours: { min: 0, max: 720, unit: 'hours' },
};
const DEFAULT_NUMBER_MAX = 1_000_000_000;
const TEXT_MAX = 1000;
/** A trust page is a page of text, not a line. */
const PAGE_TEXT_MAX = 10_000;

/** Texts the business may leave empty: the line is then not shown. */
const optionalTexts = new Set<SettingKey>(['portal_ussd_code', 'portal_licence_line', 'feed_odds_bookmaker', 'feed_calendar_year_leagues']);
const isTrustPage = (key: SettingKey) => Object.hasOwn(trustPageDefaults, key.replace(/_sw$/, ''));

/** A trust page may use any of the values the portal fills in, or none; never another. */
function checkTrustPage(text: string): string {
  const unknown = templatePlaceholders(text).filter((p) => !(TRUST_PAGE_VALUES as readonly string[]).includes(p));
  if (unknown.length > 0) {
    throw fieldError('value', `The text uses ${unknown.map((p) => `{${p}}`).join(', ')}; only {${TRUST_PAGE_VALUES.join('}, {')}} are filled in`);
  }
  return text;
}

function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(settingDefaults, key);
}

/** Texts the code fills in (ICU MessageFormat, customer-texts/format.ts): each keeps exactly its default's placeholders. */
const isTemplate = (key: SettingKey) => key === 'temporary_password_sms' || isEditableText(key.replace(/_sw$/, ''));
/** Texts a customer reads by SMS: GSM-7 only, or every part of every message costs twice. */
const isCustomerSms = (key: SettingKey) => isEditableText(key.replace(/_sw$/, ''));

/** A template's placeholders, or a 422 on `value` when it is not a valid message. */
function templatePlaceholders(text: string): string[] {
  try {
    return placeholdersOf(text);
  } catch (error) {
    throw fieldError('value', error instanceof Error ? error.message : String(error));
  }
}

/** The text of a template setting after checking its placeholders and, for a customer SMS, its alphabet. */
function checkTemplate(key: SettingKey, text: string, fallback: string): string {
  const wanted = templatePlaceholders(fallback);
  const used = templatePlaceholders(text);
  const missing = wanted.filter((p) => !used.includes(p));
  if (missing.length > 0) {
    const names = missing.map((p) => `{${p}}`).join(', ');
    throw fieldError('value', `The text must keep ${names}: the system fills ${missing.length === 1 ? 'it' : 'them'} in`);
  }
  const unknown = used.filter((p) => !wanted.includes(p));
  if (unknown.length > 0) {
    throw fieldError('value', `The text uses ${unknown.map((p) => `{${p}}`).join(', ')}, which the system does not fill in`);
  }
  if (isCustomerSms(key)) {
    const unicode = unicodeCharacters(text);
    if (unicode.length > 0) {
      throw fieldError('value', `The text has characters outside the SMS alphabet (${unicode.join(' ')}): each would make every SMS cost twice`);
    }
  }
  return text;
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
    if (text === '') throw fieldError('value', refusalTexts.settingNumberRequired);
    const value = typeof text === 'string' ? Number(text) : text;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw fieldError('value', refusalTexts.settingNotANumber);
    const bounds = numberBounds[key] ?? { min: 0, max: DEFAULT_NUMBER_MAX };
    if (!Number.isInteger(value)) throw fieldError('value', refusalTexts.settingNotWhole);
    if (value < bounds.min || value > bounds.max) {
      const unit = bounds.unit ? ` ${bounds.unit}` : '';
      throw fieldError('value', `The value must be between ${bounds.min} and ${bounds.max}${unit}`);
    }
    return value;
  }
  if (typeof fallback === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    throw fieldError('value', refusalTexts.settingNotOnOff);
  }
  if (typeof raw === 'string' && raw.trim() === '' && optionalTexts.has(key)) return '';
  if (typeof raw !== 'string' || raw.trim() === '') throw fieldError('value', refusalTexts.settingTextRequired);
  const text = raw.trim();
  const max = isTrustPage(key) ? PAGE_TEXT_MAX : TEXT_MAX;
  if (text.length > max) throw fieldError('value', `The text may not be longer than ${max} characters`);
  if (isTrustPage(key)) return checkTrustPage(text);
  if (key === 'feed_leagues' || key === 'feed_calendar_year_leagues') {
    const ids = text.split(',').map((id) => id.trim());
    if (!ids.every((id) => /^\d{1,10}$/.test(id))) throw fieldError('value', refusalTexts.feedLeaguesInvalid);
    return ids.join(',');
  }
  if (key === 'customer_language_default') {
    if (!isLanguage(text)) throw fieldError('value', `The language must be one of ${LANGUAGES.join(', ')}`);
    return text;
  }
  return isTemplate(key) ? checkTemplate(key, text, String(fallback)) : text;
}

/** Settings whose text leaves by SMS: a customer text, the temporary password, the opt-out line promotional SMS end with. */
const isSmsText = (key: SettingKey) => isCustomerSms(key) || key === 'temporary_password_sms' || key === 'sms_opt_out_text';

/** The editable texts that are promotional (decision 061): they leave with the responsible-gambling lines. */
const PROMOTIONAL_TEMPLATES: readonly EditableTextId[] = ['subscription_reminder_sms'];
const languageOfKey = (key: string): Language => (key.endsWith('_sw') ? 'sw' : 'en');

/** Every setting with its description, in the order of the defaults. */
export async function listSettings(db: Queryable): Promise<Setting[]> {
  const order = Object.keys(settingDefaults);
  const found = await q.listSettings(db);
  const rulesOn = found.find((s) => s.key === 'rg_promotion_rules')?.value ?? settingDefaults.rg_promotion_rules.value;
  const appended = (key: SettingKey) =>
    rulesOn === true && (PROMOTIONAL_TEMPLATES as readonly string[]).includes(key.replace(/_sw$/, '')) ? { appended: responsibleGamblingLines(languageOfKey(key)) } : {};
  return found
    .filter((s): s is q.SettingRow & { key: SettingKey } => isSettingKey(s.key))
    .sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key))
    .map((s) => ({ ...s, value: s.value as WireValue, sms: isSmsText(s.key), safeguard: isSafeguard(s.key), ...appended(s.key) }));
}

/** Texts of the portal that advertise it (its home page line and search description). */
const PORTAL_ADVERT_TEXTS = new Set<SettingKey>(['portal_description', 'portal_description_sw']);

/**
 * A customer SMS template (or the portal's description) holding a banned claim is refused while
 * `rg_promotion_rules` is on (422 on `value` naming the words), and the refusal kept (decision 061):
 * any of them may carry an offer.
 */
async function refuseBannedClaims(deps: { db: Queryable }, key: SettingKey, value: unknown, userId: number): Promise<void> {
  if (!(isCustomerSms(key) || PORTAL_ADVERT_TEXTS.has(key)) || typeof value !== 'string') return;
  const claims = bannedClaimsIn(value);
  if (claims.length === 0 || !(await getSetting(deps.db, 'rg_promotion_rules'))) return;
  await refuse(deps.db, { source: 'template', target: key, language: languageOfKey(key), body: value, claims, createdBy: userId }, 'value');
}

/** The reason kept with a safeguard turned off, or a 422 on `reason` when it is missing or short; null otherwise. */
function safeguardReason(key: SettingKey, value: unknown, reason: string | undefined): string | null {
  if (!isSafeguard(key) || value !== false) return null;
  const text = reason?.trim() ?? '';
  if (text.length < SAFEGUARD_REASON_MIN) throw fieldError('reason', settingTexts.safeguardReasonRequired);
  return text;
}

/** Changes one setting after checking its value; audited with before and after. */
export const updateSetting: StaffFormAction<typeof SettingForm> = async (deps, actor, form, requestId) => {
  if (!isSettingKey(form.key)) throw fieldError('key', settingTexts.unknownKey);
  const key = form.key;
  const value = checkSettingValue(key, form.value);
  const reason = safeguardReason(key, value, form.reason);
  await refuseBannedClaims(deps, key, value, actor.userId);
  await deps.db.transaction(async (tx) => {
    const before = await q.lockSetting(tx, key);
    if (before === undefined) {
      await ensureSettingDefaults(tx);
    }
    await q.saveSetting(tx, key, value, actor.userId, reason);
    await audit(tx, 'setting.update', key, byStaff(actor, requestId), {
      before: { value: before === undefined ? settingDefaults[key].value : before },
      after: reason === null ? { value } : { value, reason },
    });
  });
  return { info: settingTexts.saved };
};
