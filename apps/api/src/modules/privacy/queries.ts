import { sql, type SQL } from 'drizzle-orm';
import type { PrivacyRequest } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { dataBreaches, privacyRequests, retentionRuns } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/**
 * The privacy module's statements. A person's data lies in many modules' tables, so the subject
 * export, the erasure and the retention job read and write them here, in one place (decision 025).
 */

/** A held record as stored, its columns varying by section. */
type HeldRow = Record<string, unknown>;

const idList = (ids: number[]) => (ids.length ? sql.join(ids.map((id) => sql`${id}`), sql`, `) : sql`null`);

/** Who the phone is in Betdesk: its subscriber and client ids (trashed clients included). */
export async function peopleOfPhone(db: Queryable, phone: string) {
  const subscribers = await rows<{ id: number }>(db, sql`select id from tips_subscribers where phone = ${phone}`);
  const clients = await rows<{ id: number }>(db, sql`select id from clients where phone = ${phone}`);
  return { subscriberIds: subscribers.map((r) => Number(r.id)), clientIds: clients.map((r) => Number(r.id)) };
}

/** A person in the statements below: the phone, its hash, and the subscriber and client ids it is. */
export interface Person {
  phone: string;
  hash: string;
  subscriberIds: number[];
  clientIds: number[];
}

/** Every record held about one person, section by section, as stored (the service makes it readable). */
export async function subjectRecords(db: Queryable, person: Person) {
  const { phone, hash } = person;
  const S = idList(person.subscriberIds);
  const C = idList(person.clientIds);
  const q = (query: SQL) => rows<HeldRow>(db, query);
  return {
    payments: await q(sql`
      select id, trans_id as receipt, source, amount_cents, bill_ref_number as account, msisdn, sender_phone, sender_name,
             paid_at, status, client_id, subscriber_id
        from mpesa_payments
       where subscriber_id in (${S}) or client_id in (${C}) or sender_phone = ${phone} or msisdn in (${phone}, ${hash})
       order by paid_at`),
    sms_sent: await rows<HeldRow & { intent: string; text: string }>(
      db,
      sql`select id, intent, recipient, body as text, sms_class, status, created_at
            from sms_messages where recipient = ${phone} or subscriber_id in (${S}) or client_id in (${C}) order by id`,
    ),
    subscribers: await q(sql`select id, name, phone, joined_at from tips_subscribers where id in (${S})`),
    clients: await q(sql`
      select id, name, phone, email, maximum_stake_cents, last_login, created_at, deleted_at from clients where id in (${C})`),
    platform_accounts: await q(sql`
      select client_id, platform, 'held, sealed' as password, updated_at from client_platform_passwords where client_id in (${C})`),
    subscriptions: await q(sql`
      select id, client_id, subscriber_id, bet_category_id, medium, plan_id, package_id, amount_cents, starts_at, expires_at, source
        from subscriptions where subscriber_id in (${S}) or client_id in (${C}) order by starts_at`),
    payment_requests: await q(sql`
      select id, purpose, phone, amount_cents, account_reference, status, result_desc, requested_at, settled_at
        from stk_requests where phone = ${phone} or subscriber_id in (${S}) or client_id in (${C}) order by requested_at`),
    sms_received: await q(sql`
      select id, phone, text, keyword, action, received_at from sms_inbound where phone = ${phone} order by id`),
    portal_sign_ins: await q(sql`
      select created_at as signed_in_at, expires_at, revoked_at as signed_out_at, ip, user_agent
        from portal_sessions where phone = ${phone} order by id`),
    portal_codes: await q(sql`
      select created_at as asked_at, expires_at, used_at, tries as wrong_tries, ip from portal_codes where phone = ${phone} order by id`),
    bets: await q(sql`
      select id, client_id, stake_cents, description, profit_cents, status, opened_at, closed_at
        from bets where client_id in (${C}) order by opened_at, id`),
    bonuses: await q(sql`
      select id, bet_id, client_id, amount_cents, rate_percent, paid_cents, earned_at from bonuses where client_id in (${C}) order by earned_at, id`),
    bonus_payments: await q(sql`
      select id, client_id, amount_cents, description, source, paid_at from bonus_payments where client_id in (${C}) order by paid_at, id`),
    ledger: await q(sql`
      select id, client_id, subscriber_id, kind, amount_cents, payment_id, subscription_id, bonus_payment_id, note, created_at
        from ledger_entries where client_id in (${C}) or subscriber_id in (${S}) order by created_at, id`),
    opt_outs: await q(sql`select action, scope, source, reason, created_at from sms_opt_out_events where phone = ${phone} order by id`),
    consents: await q(sql`select given, channel, wording, note, at from marketing_consent_events where phone = ${phone} order by id`),
    age_declaration: await q(sql`select channel, declared_at from age_declarations where phone = ${phone}`),
    requests: await q(sql`select id, kind, note, received_at, due_at, done_at, outcome from privacy_requests where phone = ${phone} order by id`),
    audit: await q(sql`
      select action, entity, entity_id, before, after, at from audit_log
       where (entity = 'tips_subscriber' and entity_id in (select x::text from unnest(array[${S}]::int[]) x))
          or (entity = 'client' and entity_id in (select x::text from unnest(array[${C}]::int[]) x))
       order by id`),
  };
}

// --- The erasure (erase.ts composes these in the caller's transaction) ---

/** How many rows a writing statement changed. */
const changed = async (tx: Queryable, query: SQL) =>
  (await rows<{ n: number }>(tx, sql`with done as (${query} returning 1) select count(*)::int as n from done`))[0]?.n ?? 0;

/** The person's M-Pesa payments: theirs by id, or paid from their phone (plain or hashed). */
export async function paymentIdsOf(tx: Queryable, person: Person): Promise<number[]> {
  const { phone, hash } = person;
  const found = await rows<{ id: number }>(
    tx,
    sql`select id from mpesa_payments
         where subscriber_id in (${idList(person.subscriberIds)}) or client_id in (${idList(person.clientIds)}) or sender_phone = ${phone} or msisdn in (${phone}, ${hash})`,
  );
  return found.map((p) => Number(p.id));
}

/** The person's payment requests (a portal or USSD purchase is audited against its request). */
export async function paymentRequestIdsOf(tx: Queryable, person: Person): Promise<number[]> {
  const found = await rows<{ id: number }>(
    tx,
    sql`select id from stk_requests where phone = ${person.phone} or subscriber_id in (${idList(person.subscriberIds)}) or client_id in (${idList(person.clientIds)})`,
  );
  return found.map((r) => Number(r.id));
}

/**
 * Audit rows about the given (entity, entity_id) pairs lose the `keys` of their snapshots. Each pair
 * reads the audit's entity index, never the whole log.
 */
export async function stripAuditSnapshots(tx: Queryable, about: string[][], keys: string[]) {
  const strip = sql`array[${sql.join(keys.map((k) => sql`${k}`), sql`, `)}]::text[]`;
  await tx.execute(sql`
    update audit_log
       set before = case when jsonb_typeof(before) = 'object' then before - ${strip} else before end,
           after = case when jsonb_typeof(after) = 'object' then after - ${strip} else after end
     where (entity, entity_id) in (${sql.join(about.map(([entity, id]) => sql`(${entity}, ${id})`), sql`, `)})`);
}

/** The payments lose their payer fields; the raw body keeps only receipt, amount, time and shortcode. */
export async function erasePayments(tx: Queryable, paymentIds: number[]): Promise<number> {
  return changed(
    tx,
    sql`
    update mpesa_payments
       set sender_name = null, sender_phone = null, msisdn = null, msisdn_kind = 'unknown',
           bill_ref_number = nullif(trim(regexp_replace(coalesce(bill_ref_number, ''), '\\+?\\d{9,12}', '', 'g')), ''),
           raw = jsonb_build_object('TransID', raw->'TransID', 'TransAmount', raw->'TransAmount', 'TransTime', raw->'TransTime',
                                    'BusinessShortCode', raw->'BusinessShortCode', 'erased', true)
     where id in (${idList(paymentIds)})`,
  );
}

export async function erasePaymentRequests(tx: Queryable, person: Person): Promise<number> {
  return changed(
    tx,
    sql`
    update stk_requests set phone = 'erased'
     where phone = ${person.phone} or subscriber_id in (${idList(person.subscriberIds)}) or client_id in (${idList(person.clientIds)})`,
  );
}

/**
 * The person's Ratiba standing orders lose their phone, and a live one is stopped: nothing more is
 * asked of M-Pesa or told to the person about it (the order itself is cancelled in M-Pesa, decision 042).
 */
export async function eraseStandingOrders(tx: Queryable, person: Person): Promise<number> {
  return changed(
    tx,
    sql`
    update standing_orders
       set phone = 'erased',
           status = case when status in ('requested', 'pending', 'active') then 'stopped' else status end,
           stopped_at = case when status in ('requested', 'pending', 'active') then now() else stopped_at end
     where phone = ${person.phone} or subscriber_id in (${idList(person.subscriberIds)})`,
  );
}

/**
 * The person's phone leaves the levers' records: the promo and referral code uses made from it (a
 * one-per-phone use keeps its place, under a key that is no phone) and an agent registered with it.
 */
export async function eraseLeverPhones(tx: Queryable, person: Person): Promise<number> {
  const uses = await changed(
    tx,
    sql`
    update promo_code_uses
       set phone = 'erased', phone_key = case when phone_key is null then null else 'erased-' || id::text end
     where phone = ${person.phone}`,
  );
  const agents = await changed(
    tx,
    sql`
    update agents set name = 'Erased agent ' || id::text, phone = 'erased-a' || id::text
     where phone = ${person.phone}`,
  );
  return uses + agents;
}

/** Messages to the person still waiting to leave never will. */
export async function failQueuedMessagesTo(tx: Queryable, person: Person) {
  await tx.execute(sql`
    update sms_messages set status = 'failed', failure_reason = 'The person was erased', last_error = 'The person was erased'
     where status = 'queued' and (recipient = ${person.phone} or subscriber_id in (${idList(person.subscriberIds)}) or client_id in (${idList(person.clientIds)}))`);
}

export async function eraseMessagesTo(tx: Queryable, person: Person): Promise<number> {
  const { phone } = person;
  return changed(
    tx,
    sql`
    update sms_messages
       set recipient = 'erased', body = '[erased]', dedupe_key = replace(dedupe_key, ${phone}, 'erased-' || id::text)
     where recipient = ${phone} or subscriber_id in (${idList(person.subscriberIds)}) or client_id in (${idList(person.clientIds)})`,
  );
}

export async function eraseMessagesFrom(tx: Queryable, person: Person): Promise<number> {
  return changed(
    tx,
    sql`
    update sms_inbound set phone = 'erased', text = '[erased]'
     where phone = ${person.phone} or subscriber_id in (${idList(person.subscriberIds)}) or client_id in (${idList(person.clientIds)})`,
  );
}

export async function eraseSubscribers(tx: Queryable, subscriberIds: number[]): Promise<number> {
  return changed(
    tx,
    sql`
    update tips_subscribers
       set name = 'Erased person ' || id::text, phone = 'erased-s' || id::text,
           phone_hash = encode(sha256(convert_to('erased-s' || id::text, 'UTF8')), 'hex')
     where id in (${idList(subscriberIds)})`,
  );
}

/** The clients lose their platform passwords, then their names, phones, emails and photos. */
export async function eraseClients(tx: Queryable, clientIds: number[]): Promise<number> {
  const C = idList(clientIds);
  await tx.execute(sql`delete from client_platform_passwords where client_id in (${C})`);
  return changed(
    tx,
    sql`
    update clients
       set name = 'Erased client ' || id::text, phone = 'erased-c' || id::text,
           phone_hash = encode(sha256(convert_to('erased-c' || id::text, 'UTF8')), 'hex'),
           email = null, photo = null, last_login = null, updated_at = now()
     where id in (${C})`,
  );
}

/** The phone's opt-outs, consents and 18+ declaration go, events and current state alike. */
export async function dropOptOutsAndConsents(tx: Queryable, phone: string) {
  await tx.execute(sql`delete from sms_opt_out_events where phone = ${phone}`);
  await tx.execute(sql`delete from sms_opt_outs where phone = ${phone}`);
  await tx.execute(sql`delete from marketing_consent_events where phone = ${phone}`);
  await tx.execute(sql`delete from marketing_consents where phone = ${phone}`);
  // The 18+ declaration (decision 060): an erased phone buys nothing again, so none is kept.
  await tx.execute(sql`delete from age_declarations where phone = ${phone}`);
}

/** Their portal sessions end now and no sign-in of theirs is kept. */
export async function dropPortalSignIns(tx: Queryable, phone: string) {
  await tx.execute(sql`delete from portal_sessions where phone = ${phone}`);
  await tx.execute(sql`delete from portal_codes where phone = ${phone}`);
}

/** Requests about the phone keep only its hash, and the hash is remembered as erased. */
export async function rememberErasedPhone(tx: Queryable, phone: string, hash: string, reason: 'request' | 'retention') {
  await tx.execute(sql`update privacy_requests set phone = ${hash} where phone = ${phone}`);
  await tx.execute(sql`insert into erased_phones (phone_hash, reason) values (${hash}, ${reason}) on conflict do nothing`);
}

// --- The retention job ---

/** Phones of people with no subscription, payment, message or sign-in since `cutoff` (at most `limit`). */
export async function quietPhones(db: Queryable, cutoff: string, limit: number): Promise<{ phone: string }[]> {
  return rows<{ phone: string }>(
    db,
    sql`select phone from (
          select s.phone from tips_subscribers s
           where s.joined_at < ${cutoff}::timestamptz and s.phone not like 'erased-%'
             and not exists (select 1 from subscriptions x where x.subscriber_id = s.id and x.expires_at > ${cutoff}::timestamptz)
             and not exists (select 1 from mpesa_payments p where p.subscriber_id = s.id and p.paid_at > ${cutoff}::timestamptz)
             and not exists (select 1 from sms_messages m where m.subscriber_id = s.id and m.created_at > ${cutoff}::timestamptz)
             and not exists (select 1 from sms_inbound i where i.phone = s.phone and i.received_at > ${cutoff}::timestamptz)
          union
          select c.phone from clients c
           where c.created_at < ${cutoff}::timestamptz and c.phone not like 'erased-%'
             and coalesce(c.last_login, c.created_at) < ${cutoff}::timestamptz
             and not exists (select 1 from subscriptions x where x.client_id = c.id and x.expires_at > ${cutoff}::timestamptz)
             and not exists (select 1 from mpesa_payments p where p.client_id = c.id and p.paid_at > ${cutoff}::timestamptz)
             and not exists (select 1 from bets b where b.client_id = c.id and b.opened_at > ${cutoff}::timestamptz)
             and not exists (select 1 from sms_messages m where m.client_id = c.id and m.created_at > ${cutoff}::timestamptz)
        ) quiet
        limit ${limit}`,
  );
}

/** The other processes' retention runs wait: one run at a time. */
export async function lockRetentionRuns(tx: Queryable) {
  await tx.execute(sql`lock table ${retentionRuns} in exclusive mode`);
}

/** The last sent message whose text age was already checked (0 before the first run). */
export async function sentTextsWatermark(tx: Queryable): Promise<number> {
  const [last] = await rows<{ watermark: number | null }>(tx, sql`select max(sms_watermark_id) as watermark from ${retentionRuns}`);
  return Number(last?.watermark ?? 0);
}

/** Empties sent texts older than `cutoff` past the watermark, at most `limit` rows read. */
export async function emptyOldSentTexts(tx: Queryable, from: number, cutoff: string, limit: number) {
  const [emptied] = await rows<{ n: number; top: number | null }>(
    tx,
    sql`with batch as (
          select id from sms_messages where id > ${from} and created_at < ${cutoff}::timestamptz
           order by id limit ${limit}),
        done as (update sms_messages m set body = '' from batch where m.id = batch.id and m.body <> '' returning m.id)
        select (select count(*)::int from done) as n, (select max(id) from batch) as top`,
  );
  return emptied;
}

/** Received texts age the same way as sent ones (off sms_inbound_received_idx, oldest first). */
export async function emptyOldReceivedTexts(tx: Queryable, cutoff: string, limit: number): Promise<number> {
  const [received] = await rows<{ n: number }>(
    tx,
    sql`with batch as (
          select id from sms_inbound where received_at < ${cutoff}::timestamptz and text <> ''
           order by received_at, id limit ${limit}),
        done as (update sms_inbound i set text = '' from batch where i.id = batch.id returning i.id)
        select count(*)::int as n from done`,
  );
  return received?.n ?? 0;
}

export async function recordRetentionRun(
  tx: Queryable,
  run: { ranAt: Date; peoplePseudonymised: number; smsTextsEmptied: number; smsWatermarkId: number },
) {
  await tx.insert(retentionRuns).values(run);
}

/** When the retention job last ran, and its people and texts over all runs. */
export async function retentionTotals(db: Queryable) {
  const [r] = await rows<{ last: Date | string | null; people: number | string | null; texts: number | string | null }>(
    db,
    sql`select max(ran_at) as last, sum(people_pseudonymised) as people, sum(sms_texts_emptied) as texts from ${retentionRuns}`,
  );
  return r;
}

// --- Requests from people, and data breaches ---

export interface RequestRow {
  id: number;
  kind: PrivacyRequest['kind'];
  phone: string;
  note: string | null;
  received_at: string;
  due_at: string;
  done_at: string | null;
  outcome: string | null;
  recorded_by: string | null;
  total_records?: string;
}

const requestSelect = sql`
  select r.id, r.kind, r.phone, r.note, r.received_at, r.due_at, r.done_at, r.outcome, u.name as recorded_by
    from ${privacyRequests} r left join users u on u.id = r.recorded_by`;

/** One page of requests, open ones first by due date; `openOnly` keeps the open ones. */
export async function requestPage(db: Queryable, page: { openOnly: boolean; perPage: number; offset: number }) {
  const where = page.openOnly ? sql`r.done_at is null` : sql`true`;
  const found = await rows<RequestRow>(
    db,
    sql`${requestSelect} where ${where}
        order by (r.done_at is null) desc, case when r.done_at is null then r.due_at end asc, r.id desc
        limit ${page.perPage} offset ${page.offset}`,
  );
  const [counted] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${privacyRequests} r where ${where}`);
  return { found, total: counted?.n ?? 0 };
}

export async function requestById(db: Queryable, id: number): Promise<RequestRow | undefined> {
  const [row] = await rows<RequestRow>(db, sql`${requestSelect} where r.id = ${id}`);
  return row;
}

export async function insertRequest(
  tx: Queryable,
  request: { kind: PrivacyRequest['kind']; phone: string; note: string | null; dueAt: Date; recordedBy: number },
): Promise<number> {
  const [created] = await tx.insert(privacyRequests).values(request).returning({ id: privacyRequests.id });
  return created!.id;
}

/** Closes an open request; false when there is no open request of that id. */
export async function closeRequest(tx: Queryable, id: number, doneBy: number, outcome: string): Promise<boolean> {
  const done = await tx.execute(sql`
    update ${privacyRequests} set done_at = now(), done_by = ${doneBy}, outcome = ${outcome}
     where id = ${id} and done_at is null returning id`);
  return (done as unknown as { rows: unknown[] }).rows.length > 0;
}

/** The open erasure requests about the phone are done: it was erased. */
export async function closeErasureRequests(tx: Queryable, hash: string, doneBy: number) {
  await tx.execute(sql`
    update privacy_requests set done_at = now(), done_by = ${doneBy}, outcome = 'Erased'
     where phone = ${hash} and kind = 'erasure' and done_at is null`);
}

/** The open requests and how many are past due, off the partial index of the open rows. */
export async function openRequestCounts(db: Queryable) {
  const [requests] = await rows<{ open: number; overdue: number }>(
    db,
    sql`select count(*)::int as open, count(*) filter (where due_at < now())::int as overdue
          from ${privacyRequests} where done_at is null`,
  );
  return requests;
}

export interface BreachRow {
  id: number;
  discovered_at: string;
  description: string;
  people_affected: number;
  data_concerned: string;
  measures: string | null;
  notified_at: string | null;
  notification_ref: string | null;
  recorded_by: string | null;
}

const breachSelect = sql`
  select b.id, b.discovered_at, b.description, b.people_affected, b.data_concerned, b.measures, b.notified_at,
         b.notification_ref, u.name as recorded_by
    from ${dataBreaches} b left join users u on u.id = b.recorded_by`;

export async function breachPage(db: Queryable, page: { perPage: number; offset: number }) {
  const found = await rows<BreachRow>(
    db,
    sql`${breachSelect} order by b.discovered_at desc, b.id desc limit ${page.perPage} offset ${page.offset}`,
  );
  const [counted] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${dataBreaches}`);
  return { found, total: counted?.n ?? 0 };
}

export async function breachById(db: Queryable, id: number): Promise<BreachRow | undefined> {
  const [row] = await rows<BreachRow>(db, sql`${breachSelect} where b.id = ${id}`);
  return row;
}

/** The breaches the Data Commissioner has not been told of yet, oldest first. */
export async function unnotifiedBreaches(db: Queryable): Promise<BreachRow[]> {
  return rows<BreachRow>(db, sql`${breachSelect} where b.notified_at is null order by b.discovered_at`);
}

export async function insertBreach(
  tx: Queryable,
  breach: { discoveredAt: Date; description: string; peopleAffected: number; dataConcerned: string; measures: string | null; recordedBy: number },
): Promise<number> {
  const [created] = await tx.insert(dataBreaches).values(breach).returning({ id: dataBreaches.id });
  return created!.id;
}

/** Records the notice of a breach not notified yet; false when there is no such breach to notify. */
export async function markBreachNotified(tx: Queryable, id: number, notifiedAt: Date, notificationRef: string): Promise<boolean> {
  const done = await tx.execute(sql`
    update ${dataBreaches} set notified_at = ${notifiedAt.toISOString()}::timestamptz, notification_ref = ${notificationRef}
     where id = ${id} and notified_at is null returning id`);
  return (done as unknown as { rows: unknown[] }).rows.length > 0;
}
