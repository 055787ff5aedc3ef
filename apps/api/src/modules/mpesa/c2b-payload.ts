import { normaliseKenyanPhone, readProviderPayload, textSafetyTexts } from '@betdesk/contract';
import { MSISDN_KINDS } from '../../db/schema/index.ts';

/** Daraja's limits on one payment (INTEGRATIONS.md): KES 1 to 250,000. */
export const MIN_PAYMENT_CENTS = 100;
export const MAX_PAYMENT_CENTS = 250_000_00;

export type MsisdnKind = (typeof MSISDN_KINDS)[number];

/** What a C2B confirmation says, read from Daraja's all-string body. */
export interface C2bFields {
  transId: string | null;
  transactionType: string | null;
  amountCents: number | null;
  billRefNumber: string | null;
  msisdn: string | null;
  msisdnKind: MsisdnKind;
  /** E.164 digits, only when the MSISDN is a plain Kenyan phone. */
  senderPhone: string | null;
  senderName: string | null;
  transTime: Date | null;
  businessShortCode: string | null;
}

/**
 * `rejectReason`: the payload is not money (unreadable); `warning`: it is money M-Pesa received but
 * not in a way the business expects (another shortcode), to be stored unclaimed for a person to look at.
 * `raw`: the payload as received, in a form the database can hold (control characters escaped).
 */
export type ParsedC2b = { fields: C2bFields; rejectReason: string | null; warning: string | null; raw: unknown };

function text(body: Record<string, unknown>, key: string): string | null {
  const value = body[key];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** "1,500.50" or "100" -> cents; null when it is not a plain non-negative amount. */
export function amountToCents(value: string): number | null {
  const plain = value.replace(/,/g, '');
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Daraja's "YYYYMMDDHHmmss", read as Nairobi time (UTC+3, no daylight saving). */
export function nairobiTime(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h - 3, mi, s);
  const check = new Date(utc + 3 * 3_600_000);
  // 20240231... is not a date.
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return new Date(utc);
}

/** A v1 MSISDN is the SHA-256 hex of the number, a v2 one is masked ("2547 ***** 126"). */
export function classifyMsisdn(value: string | null): { kind: MsisdnKind; phone: string | null; stored: string | null } {
  if (!value) return { kind: 'unknown', phone: null, stored: null };
  if (/^[0-9a-f]{64}$/i.test(value)) return { kind: 'hashed', phone: null, stored: value.toLowerCase() };
  if (value.includes('*')) return { kind: 'masked', phone: null, stored: value };
  const phone = normaliseKenyanPhone(value);
  return phone ? { kind: 'plain', phone, stored: value } : { kind: 'unknown', phone: null, stored: value };
}

/**
 * Reads a C2B body. Never throws: what cannot be read is reported as the reason to store the
 * payload as rejected (it is kept either way). Fields are read with control characters removed
 * (a NUL in FirstName must not lose the payment).
 */
export function parseC2b(received: unknown, expectedShortCodes: string | readonly string[] | undefined): ParsedC2b {
  const ours = (typeof expectedShortCodes === 'string' ? [expectedShortCodes] : (expectedShortCodes ?? [])).filter(Boolean);
  const { clean: raw, raw: storable, tooDeep } = readProviderPayload(received);
  const body = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const msisdn = classifyMsisdn(text(body, 'MSISDN'));
  const names = ['FirstName', 'MiddleName', 'LastName'].map((k) => text(body, k)).filter(Boolean);
  const transTimeText = text(body, 'TransTime');
  const amountText = text(body, 'TransAmount');
  const fields: C2bFields = {
    transId: text(body, 'TransID')?.slice(0, 64) ?? null,
    transactionType: text(body, 'TransactionType'),
    amountCents: amountText === null ? null : amountToCents(amountText),
    billRefNumber: text(body, 'BillRefNumber')?.slice(0, 64) ?? null,
    msisdn: msisdn.stored,
    msisdnKind: msisdn.kind,
    senderPhone: msisdn.phone,
    senderName: names.length > 0 ? names.join(' ').slice(0, 200) : null,
    transTime: transTimeText ? nairobiTime(transTimeText) : null,
    businessShortCode: text(body, 'BusinessShortCode'),
  };

  let rejectReason: string | null = null;
  if ('unreadable_body' in body) rejectReason = 'The body is not valid JSON';
  else if (tooDeep) rejectReason = textSafetyTexts.tooDeep;
  else if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) rejectReason = 'The body is not a JSON object';
  else if (!fields.transId) rejectReason = 'TransID is missing';
  else if (!/^[A-Za-z0-9]{6,64}$/.test(fields.transId)) rejectReason = `TransID "${fields.transId}" is not an M-Pesa receipt`;
  else if (amountText === null) rejectReason = 'TransAmount is missing';
  else if (fields.amountCents === null) rejectReason = `TransAmount "${amountText.slice(0, 40)}" is not an amount`;
  else if (fields.amountCents < MIN_PAYMENT_CENTS) rejectReason = `TransAmount ${amountText} is below KES 1`;
  else if (fields.amountCents > MAX_PAYMENT_CENTS) rejectReason = `TransAmount ${amountText} is above KES 250,000`;
  else if (transTimeText && !fields.transTime) rejectReason = `TransTime "${transTimeText.slice(0, 40)}" is not a date`;
  // A rejected amount is not money received: keep the text in the raw payload only.
  if (rejectReason) fields.amountCents = fields.amountCents !== null && fields.amountCents <= MAX_PAYMENT_CENTS ? fields.amountCents : null;
  const warning =
    !rejectReason && ours.length > 0 && !ours.includes(fields.businessShortCode ?? '')
      ? shortCodeWarning(fields.businessShortCode, ours)
      : null;
  return { fields, rejectReason, warning, raw: storable ?? {} };
}

/** Why a payment to another shortcode waits for a person instead of being matched. */
export function shortCodeWarning(given: string | null, ours: readonly string[]): string {
  return `Not our shortcode: paid to ${given ?? '(none given)'} (ours: ${ours.join(', ')}); check it before claiming`;
}
