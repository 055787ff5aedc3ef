import { sql } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';

/**
 * Erasing a person (a request, or the retention job): everything that names them goes, the money
 * records stay as a pseudonymised ledger (amount, date, receipt, what it paid for), so every total,
 * report and reconciliation is unchanged to the cent (decision 025).
 *
 * Personal data removed: names, phones (and their hashes), emails, photos, platform passwords, the
 * text of messages sent and received, the payer fields and raw body of M-Pesa payments (the raw body
 * keeps only its receipt, amount, time and shortcode), portal sessions and codes, opt-outs and consents (replaced by the erased
 * phone's SHA-256, which stops every message to it and flags a later payment from it), and the
 * names and phones inside the audit rows about them.
 */

export interface ErasedCounts {
  subscribers: number;
  clients: number;
  payments: number;
  messages: number;
  received_messages: number;
  payment_requests: number;
}

/** Fields of audit snapshots that name a person. */
const PERSONAL_KEYS = ['name', 'phone', 'email', 'sender_name', 'sender_phone', 'msisdn', 'recipient', 'body', 'text', 'photo'];

/** Who the phone is in Betdesk: its subscriber and client ids (trashed clients included). */
export async function peopleOfPhone(db: Queryable, phone: string) {
  const subscribers = await rows<{ id: number }>(db, sql`select id from tips_subscribers where phone = ${phone}`);
  const clients = await rows<{ id: number }>(db, sql`select id from clients where phone = ${phone}`);
  return { subscriberIds: subscribers.map((r) => Number(r.id)), clientIds: clients.map((r) => Number(r.id)) };
}

const idList = (ids: number[]) => (ids.length ? sql.join(ids.map((id) => sql`${id}`), sql`, `) : sql`null`);

/** Erases the person of `phone` in the caller's transaction. `reason` is 'request' or 'retention'. */
export async function erasePhone(tx: Queryable, phone: string, reason: 'request' | 'retention'): Promise<ErasedCounts> {
  const hash = sha256Hex(phone);
  const { subscriberIds: s, clientIds: c } = await peopleOfPhone(tx, phone);
  const S = idList(s);
  const C = idList(c);
  const count = async (q: ReturnType<typeof sql>) => (await rows<{ n: number }>(tx, sql`with done as (${q} returning 1) select count(*)::int as n from done`))[0]?.n ?? 0;

  // Audit rows about them lose the personal fields of their snapshots (who did what, when, stays).
  const payments = await rows<{ id: number }>(
    tx,
    sql`select id from mpesa_payments
         where subscriber_id in (${S}) or client_id in (${C}) or sender_phone = ${phone} or msisdn in (${phone}, ${hash})`,
  );
  const paymentIds = idList(payments.map((p) => Number(p.id)));
  // A portal or USSD purchase is audited against its payment request, with the phone in it.
  const requests = await rows<{ id: number }>(
    tx,
    sql`select id from stk_requests where phone = ${phone} or subscriber_id in (${S}) or client_id in (${C})`,
  );
  const strip = sql`array[${sql.join(PERSONAL_KEYS.map((k) => sql`${k}`), sql`, `)}]::text[]`;
  // Each (entity, entity_id) pair reads the audit's entity index, never the whole log.
  const about = [
    ...s.map((id) => ['tips_subscriber', String(id)]),
    ...c.map((id) => ['client', String(id)]),
    ...payments.map((p) => ['mpesa_payment', String(p.id)]),
    ...requests.map((r) => ['stk_request', String(r.id)]),
    ['sms_opt_out', phone],
  ];
  await tx.execute(sql`
    update audit_log
       set before = case when jsonb_typeof(before) = 'object' then before - ${strip} else before end,
           after = case when jsonb_typeof(after) = 'object' then after - ${strip} else after end
     where (entity, entity_id) in (${sql.join(about.map(([entity, id]) => sql`(${entity}, ${id})`), sql`, `)})`);

  const paymentsErased = await count(sql`
    update mpesa_payments
       set sender_name = null, sender_phone = null, msisdn = null, msisdn_kind = 'unknown',
           bill_ref_number = nullif(trim(regexp_replace(coalesce(bill_ref_number, ''), '\\+?\\d{9,12}', '', 'g')), ''),
           raw = jsonb_build_object('TransID', raw->'TransID', 'TransAmount', raw->'TransAmount', 'TransTime', raw->'TransTime',
                                    'BusinessShortCode', raw->'BusinessShortCode', 'erased', true)
     where id in (${paymentIds})`);
  const requestsErased = await count(sql`
    update stk_requests set phone = 'erased'
     where phone = ${phone} or subscriber_id in (${S}) or client_id in (${C})`);
  // Messages still waiting to leave never will.
  await tx.execute(sql`
    update sms_messages set status = 'failed', failure_reason = 'The person was erased', last_error = 'The person was erased'
     where status = 'queued' and (recipient = ${phone} or subscriber_id in (${S}) or client_id in (${C}))`);
  const messagesErased = await count(sql`
    update sms_messages
       set recipient = 'erased', body = '[erased]', dedupe_key = replace(dedupe_key, ${phone}, 'erased-' || id::text)
     where recipient = ${phone} or subscriber_id in (${S}) or client_id in (${C})`);
  const receivedErased = await count(sql`
    update sms_inbound set phone = 'erased', text = '[erased]'
     where phone = ${phone} or subscriber_id in (${S}) or client_id in (${C})`);

  const subscribersErased = await count(sql`
    update tips_subscribers
       set name = 'Erased person ' || id::text, phone = 'erased-s' || id::text,
           phone_hash = encode(sha256(convert_to('erased-s' || id::text, 'UTF8')), 'hex')
     where id in (${S})`);
  await tx.execute(sql`delete from client_platform_passwords where client_id in (${C})`);
  const clientsErased = await count(sql`
    update clients
       set name = 'Erased client ' || id::text, phone = 'erased-c' || id::text,
           phone_hash = encode(sha256(convert_to('erased-c' || id::text, 'UTF8')), 'hex'),
           email = null, photo = null, last_login = null, updated_at = now()
     where id in (${C})`);

  await tx.execute(sql`delete from sms_opt_out_events where phone = ${phone}`);
  await tx.execute(sql`delete from sms_opt_outs where phone = ${phone}`);
  await tx.execute(sql`delete from marketing_consent_events where phone = ${phone}`);
  await tx.execute(sql`delete from marketing_consents where phone = ${phone}`);
  // Their portal sessions end now and no sign-in of theirs is kept.
  await tx.execute(sql`delete from portal_sessions where phone = ${phone}`);
  await tx.execute(sql`delete from portal_codes where phone = ${phone}`);
  await tx.execute(sql`update privacy_requests set phone = ${hash} where phone = ${phone}`);
  await tx.execute(sql`insert into erased_phones (phone_hash, reason) values (${hash}, ${reason}) on conflict do nothing`);

  return {
    subscribers: subscribersErased,
    clients: clientsErased,
    payments: paymentsErased,
    messages: messagesErased,
    received_messages: receivedErased,
    payment_requests: requestsErased,
  };
}
