import {
  addDays,
  addMonths,
  COMPLIANCE_REMINDER_DAYS,
  complianceTexts,
  nairobiDayOf,
  ODPC_VALID_MONTHS,
  SENDER_ID_OPERATOR_NAMES,
  SENDER_ID_OPERATORS,
  type ComplianceItem,
  type ComplianceStatus,
} from '@betdesk/contract';
import type { Config } from '../../config.ts';
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import type { AgeDeclarationChannel } from '../../db/schema/index.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { invalid, notFound } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { customerTextFor, queueSms } from '../sms/service.ts';
import * as q from './queries.ts';

/** What an item is and how its dates are read: the calendar's definitions (decision 060). */
interface ItemDefinition {
  key: string;
  label: string;
  valueLabel: string;
  dateLabel: string | null;
  dateRequired: boolean;
  expiry: 'computed' | 'entered' | 'none';
  expiryLabel: string | null;
}

const fixedItems = (paybill: string | undefined): ItemDefinition[] => [
  {
    key: 'odpc_registration',
    label: 'ODPC registration certificate (data controller and processor)',
    valueLabel: 'Certificate number',
    dateLabel: 'Issued on',
    dateRequired: true,
    expiry: 'computed',
    expiryLabel: `Expires (${ODPC_VALID_MONTHS} months after issue)`,
  },
  { key: 'dpo', label: 'Data-protection officer', valueLabel: 'Name and contact', dateLabel: 'Appointed on', dateRequired: false, expiry: 'none', expiryLabel: null },
  {
    key: 'paybill_name',
    label: paybill ? `Paybill ${paybill}: the name M-Pesa shows payers` : "The paybill's name M-Pesa shows payers",
    valueLabel: 'Name on the paybill',
    dateLabel: 'Checked on',
    dateRequired: false,
    expiry: 'none',
    expiryLabel: null,
  },
  {
    key: 'counsel_tips',
    label: "Counsel's view: does selling tips need a licence?",
    valueLabel: "Counsel's view",
    dateLabel: 'Given on',
    dateRequired: true,
    expiry: 'entered',
    expiryLabel: 'Review by',
  },
  {
    key: 'counsel_bet4me',
    label: "Counsel's view: does Bet4Me (betting with clients' money) need a licence?",
    valueLabel: "Counsel's view",
    dateLabel: 'Given on',
    dateRequired: true,
    expiry: 'entered',
    expiryLabel: 'Review by',
  },
];

const senderItem = (sender: string, operator: (typeof SENDER_ID_OPERATORS)[number]): ItemDefinition => ({
  key: `sender_id.${sender}.${operator}`,
  label: `Sender id ${sender}: registration with ${SENDER_ID_OPERATOR_NAMES[operator]}`,
  valueLabel: 'Registration reference',
  dateLabel: 'Registered on',
  dateRequired: false,
  expiry: 'entered',
  expiryLabel: 'Registration ends',
});

/** The sender ids Betdesk sends with: the configured ones, and any recorded before (a sender id since renamed). */
function senderIds(config: Config, recorded: string[]): string[] {
  const configured = [config.sms.africasTalking?.senderId, config.sms.africasTalking?.promoSenderId].filter((s): s is string => Boolean(s));
  const earlier = recorded.filter((k) => k.startsWith('sender_id.')).map((k) => k.split('.')[1]!);
  return [...new Set([...configured, ...earlier])];
}

function definitions(config: Config, recorded: string[]): ItemDefinition[] {
  const senders = senderIds(config, recorded).flatMap((s) => SENDER_ID_OPERATORS.map((op) => senderItem(s, op)));
  return [...fixedItems(config.mpesa.shortcode), ...senders];
}

/** An item's end and status on `today` (a Nairobi day): missing, due within the reminder days, overdue after its end. */
export function itemDates(definition: ItemDefinition, row: q.ComplianceRow | undefined, today: string) {
  if (!row) return { expiresOn: null, remindFrom: null, status: 'missing' as ComplianceStatus };
  const expiresOn = definition.expiry === 'computed' ? (row.issued_on ? addMonths(row.issued_on, ODPC_VALID_MONTHS) : null) : definition.expiry === 'entered' ? row.expires_on : null;
  const remindFrom = expiresOn ? addDays(expiresOn, -COMPLIANCE_REMINDER_DAYS) : null;
  let status: ComplianceStatus = 'ok';
  if (definition.dateRequired && !row.issued_on) status = 'missing';
  else if (expiresOn && today >= expiresOn) status = 'overdue';
  else if (remindFrom && today >= remindFrom) status = 'due';
  return { expiresOn, remindFrom, status };
}

function itemOf(definition: ItemDefinition, row: q.ComplianceRow | undefined, today: string): ComplianceItem {
  const { expiresOn, remindFrom, status } = itemDates(definition, row, today);
  return {
    key: definition.key,
    label: definition.label,
    value_label: definition.valueLabel,
    date_label: definition.dateLabel,
    date_required: definition.dateRequired,
    expiry: definition.expiry,
    expiry_label: definition.expiryLabel,
    value: row?.value ?? null,
    issued_on: row?.issued_on ?? null,
    expires_on: expiresOn,
    remind_from: remindFrom,
    note: row?.note ?? null,
    status,
    updated_by: row?.updated_by ?? null,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
  };
}

/** The calendar: every item, recorded or not, with the count of those the dashboard warns of. */
export async function complianceCalendar(deps: Pick<AppDeps, 'db' | 'config'>, now = new Date()) {
  const today = nairobiDayOf(now);
  const recorded = await q.complianceRows(deps.db);
  const byKey = new Map(recorded.map((r) => [r.key, r]));
  const items = definitions(deps.config, recorded.map((r) => r.key)).map((d) => itemOf(d, byKey.get(d.key), today));
  return { today, alerts: items.filter((i) => i.status !== 'ok').length, items };
}

/** Records an item (audited with what it was before): its dates checked against what the item keeps. */
export async function updateComplianceItem(
  deps: Pick<AppDeps, 'db' | 'config'>,
  actor: Actor,
  key: string,
  body: { value: string; issued_on?: string | null | undefined; expires_on?: string | null | undefined; note?: string | null | undefined },
  requestId: string,
) {
  const today = nairobiDayOf(new Date());
  return deps.db.transaction(async (tx) => {
    const before = await q.lockedComplianceItem(tx, key);
    const definition = definitions(deps.config, before ? [key] : []).find((d) => d.key === key);
    if (!definition) throw notFound(complianceTexts.noSuchItem);
    const issuedOn = body.issued_on ?? null;
    const expiresOn = body.expires_on ?? null;
    const errors: Record<string, string[]> = {};
    if (definition.dateRequired && !issuedOn) errors.issued_on = [complianceTexts.dateRequired];
    if (issuedOn && issuedOn > today) errors.issued_on = [complianceTexts.dateInFuture];
    if (expiresOn && definition.expiry === 'computed') errors.expires_on = [complianceTexts.expiryComputed];
    else if (expiresOn && definition.expiry === 'none') errors.expires_on = [complianceTexts.expiryNotKept];
    else if (expiresOn && issuedOn && expiresOn < issuedOn) errors.expires_on = [complianceTexts.expiryBeforeDate];
    if (Object.keys(errors).length > 0) throw invalid(errors);
    const saved = { key, value: body.value, issuedOn, expiresOn, note: body.note || null, updatedBy: actor.userId };
    await q.saveComplianceItem(tx, saved);
    await audit(tx, 'compliance.update', key, byStaff(actor, requestId), {
      ...(before ? { before: { value: before.value, issued_on: before.issuedOn, expires_on: before.expiresOn, note: before.note } } : {}),
      after: { value: saved.value, issued_on: issuedOn, expires_on: expiresOn, note: saved.note },
    });
    const [row] = await q.complianceRows(tx, key);
    return { info: complianceTexts.saved, item: itemOf(definition, row, today) };
  });
}

/** Records the phone's 18+ declaration if it has none (its first channel and time are kept). */
export async function declareAdult(db: Queryable, phone: string, channel: AgeDeclarationChannel): Promise<boolean> {
  return q.recordAgeDeclaration(db, phone, channel);
}

/**
 * Whether a purchase from this phone must first ask its 18+ declaration: the age gate
 * (`rg_age_gate`) is on and the phone has never declared (decision 060).
 */
export async function mustDeclareAge(db: Queryable, phone: string): Promise<boolean> {
  if (!(await getSetting(db, 'rg_age_gate'))) return false;
  return (await q.ageDeclarationOf(db, phone)) === null;
}

/** The phone's 18+ declaration, or null: its channel and time. */
export async function ageDeclarationOf(db: Queryable, phone: string) {
  return q.ageDeclarationOf(db, phone);
}

// ---- The paybill's reply 18 (decision 066) --------------------------------------------------------

export const AGE_REPLY_INTENT = 'age.reply-asked';

/**
 * SQL true when a payment from this phone may not buy until the phone declares it is 18 or older
 * (`rg_age_gate` on, no declaration): a column of the C2B confirmation's first read.
 */
export function undeclaredPhoneSql(phone: string): SQL {
  return q.undeclaredPhoneSql(phone);
}

/** The warning a payment held for the payer's reply 18 carries on the payments screen, with its last hour. */
export function ageHoldWarning(graceHours: number, heldAt = new Date()): string {
  const until = new Date(heldAt.getTime() + graceHours * 3_600_000);
  const shown = until.toLocaleString('en-GB', { timeZone: 'Africa/Nairobi', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  return `Kept, not sold yet: the payer was asked to reply 18 (18+ declaration) by ${shown} Nairobi. With no reply by then, refund it (Request refund)`;
}

/** The warning of a held payment whose reply 18 came after the grace: refunded, not sold. */
export const AGE_REPLY_LATE_WARNING = 'Kept, not sold: the payer replied 18 after the grace (age_declaration_grace_hours). Refund it (Request refund)';

/**
 * A payment from a phone that never declared, stored unclaimed in `tx`: held for the phone's reply
 * 18, and the receipt asks for it (once per payment). Answers whether the SMS was queued.
 */
export async function holdForAgeReply(
  tx: Queryable,
  p: { paymentId: number; phone: string; amountCents: number; receipt: string | null; graceHours: number },
): Promise<boolean> {
  await q.insertHeldPayment(tx, p.paymentId, p.phone);
  const id = await queueSms(tx, {
    intent: AGE_REPLY_INTENT,
    dedupeKey: `${AGE_REPLY_INTENT}:${p.paymentId}`,
    to: p.phone,
    body: await customerTextFor(tx, p.phone, 'sms.age_reply_asked', {
      amount: (p.amountCents / 100).toFixed(0),
      receipt: p.receipt ?? '',
      hours: p.graceHours,
    }),
    createdBy: null,
  });
  return id !== null;
}

/** The phone's held payments not sold yet, locked, and whether each is still within the grace. */
export async function heldPaymentsOf(tx: Queryable, phone: string, graceHours: number) {
  return q.heldPaymentsOf(tx, phone, graceHours);
}

/** A held payment was sold after the phone's reply 18. */
export async function markHeldSold(tx: Queryable, paymentId: number): Promise<void> {
  await q.markHeldSold(tx, paymentId);
}

/** A held payment whose reply 18 came too late (or whose payer is blocked since): it stays kept, for its refund. */
export async function markHeldUnsold(tx: Queryable, paymentId: number): Promise<void> {
  await q.markHeldUnsold(tx, paymentId);
}
