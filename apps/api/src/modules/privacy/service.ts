import { sql } from 'drizzle-orm';
import {
  kesFixed,
  PRIVACY_SUBJECT_INTRO,
  PRIVACY_SUBJECT_SECTIONS,
  privacyTexts,
  smsTextForStaff,
  type ConsentState,
  type DataBreach,
  type PageQuery,
  type PrivacyRequest,
  type PrivacySubject,
} from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { dataBreaches, privacyRequests, retentionRuns } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { audit } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { consentState, isErasedHash, recordConsent } from '../sms/service.ts';
import { erasePhone, peopleOfPhone, type ErasedCounts } from './erase.ts';

export { erasePhone } from './erase.ts';
export { runRetention } from './retention.ts';
export { erasedPhoneTexts } from './texts.ts';

const BREACH_NOTICE_HOURS = 72;
const HOUR = 3_600_000;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const idList = (ids: number[]) => (ids.length ? sql.join(ids.map((id) => sql`${id}`), sql`, `) : sql`null`);

/**
 * A row as the person reads it: timestamps as ISO strings (the same on both databases), and each
 * stored amount in cents followed by the same amount in KES with two decimals.
 */
function plain(list: Record<string, unknown>[]): Record<string, unknown>[] {
  return list.map((row) =>
    Object.fromEntries(
      Object.entries(row).flatMap(([k, v]): [string, unknown][] => {
        if (v instanceof Date) return [[k, v.toISOString()]];
        if (k.endsWith('_cents')) {
          return v === null || v === undefined ? [[k, null], [`${k.slice(0, -'_cents'.length)}_kes`, null]] : [[k, Number(v)], [`${k.slice(0, -'_cents'.length)}_kes`, kesFixed(v)]];
        }
        return [[k, v]];
      }),
    ),
  );
}

/**
 * Everything Betdesk holds about one phone: the person's records and only theirs, with a header
 * saying what each section is. Platform passwords are listed by platform, never their value; a
 * temporary password's or sign-in code's text is hidden as on the SMS log; portal codes and
 * sessions without their hashes. Each export is audited (a sensitive action, readable on the
 * audit screen).
 */
export async function subjectOf(deps: AppDeps, actor: Actor, phone: string, requestId: string): Promise<PrivacySubject> {
  const db = deps.db;
  const hash = sha256Hex(phone);
  const { subscriberIds, clientIds } = await peopleOfPhone(db, phone);
  const S = idList(subscriberIds);
  const C = idList(clientIds);
  const q = async (query: ReturnType<typeof sql>) => plain(await rows<Record<string, unknown>>(db, query));
  const payments = await q(sql`
    select id, trans_id as receipt, source, amount_cents, bill_ref_number as account, msisdn, sender_phone, sender_name,
           paid_at, status, client_id, subscriber_id
      from mpesa_payments
     where subscriber_id in (${S}) or client_id in (${C}) or sender_phone = ${phone} or msisdn in (${phone}, ${hash})
     order by paid_at`);
  const sent = await rows<{ intent: string; text: string }>(
    db,
    sql`select id, intent, recipient, body as text, sms_class, status, created_at
          from sms_messages where recipient = ${phone} or subscriber_id in (${S}) or client_id in (${C}) order by id`,
  );
  const subject: PrivacySubject = {
    phone,
    generated_at: new Date().toISOString(),
    erased: await isErasedHash(db, hash),
    about: {
      export: PRIVACY_SUBJECT_INTRO,
      sections: Object.fromEntries(PRIVACY_SUBJECT_SECTIONS.map((section) => [section.key, section.about])),
    },
    subscribers: await q(sql`select id, name, phone, joined_at from tips_subscribers where id in (${S})`),
    clients: await q(sql`
      select id, name, phone, email, maximum_stake_cents, last_login, created_at, deleted_at from clients where id in (${C})`),
    platform_accounts: await q(sql`
      select client_id, platform, 'held, sealed' as password, updated_at from client_platform_passwords where client_id in (${C})`),
    subscriptions: await q(sql`
      select id, client_id, subscriber_id, bet_category_id, medium, plan_id, package_id, amount_cents, starts_at, expires_at, source
        from subscriptions where subscriber_id in (${S}) or client_id in (${C}) order by starts_at`),
    payments,
    payment_requests: await q(sql`
      select id, purpose, phone, amount_cents, account_reference, status, result_desc, requested_at, settled_at
        from stk_requests where phone = ${phone} or subscriber_id in (${S}) or client_id in (${C}) order by requested_at`),
    sms_sent: plain(sent.map((m) => ({ ...m, text: smsTextForStaff(m.intent, m.text) }))),
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
    requests: await q(sql`select id, kind, note, received_at, due_at, done_at, outcome from privacy_requests where phone = ${phone} order by id`),
    audit: await q(sql`
      select action, entity, entity_id, before, after, at from audit_log
       where (entity = 'tips_subscriber' and entity_id in (select x::text from unnest(array[${S}]::int[]) x))
          or (entity = 'client' and entity_id in (select x::text from unnest(array[${C}]::int[]) x))
       order by id`),
  };
  await audit(db, {
    actorUserId: actor.userId,
    action: 'privacy.export',
    entity: 'privacy_subject',
    entityId: hash.slice(0, 16),
    after: { subscribers: subscriberIds, clients: clientIds, payments: payments.length },
    requestId,
  });
  return subject;
}

/** Erases a person on request, in one transaction, audited; cannot be undone. */
export async function erasePerson(
  deps: AppDeps,
  actor: Actor,
  body: { phone: string; reason: string },
  requestId: string,
): Promise<{ info: string; erased: ErasedCounts }> {
  return deps.db.transaction(async (tx) => {
    const erased = await erasePhone(tx, body.phone, 'request');
    const touched = Object.values(erased).some((n) => n > 0);
    await tx.execute(sql`
      update privacy_requests set done_at = now(), done_by = ${actor.userId}, outcome = 'Erased'
       where phone = ${sha256Hex(body.phone)} and kind = 'erasure' and done_at is null`);
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'privacy.erase',
      entity: 'privacy_subject',
      entityId: sha256Hex(body.phone).slice(0, 16),
      after: { reason: body.reason, ...erased },
      requestId,
    });
    return { info: touched ? privacyTexts.erased : privacyTexts.nothingToErase, erased };
  });
}

interface RequestRow {
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

function toRequest(r: RequestRow): PrivacyRequest {
  const due = new Date(r.due_at);
  return {
    id: Number(r.id),
    kind: r.kind,
    // A request about an erased person keeps only the phone's hash: shown shortened.
    phone: /^[0-9a-f]{64}$/.test(r.phone) ? `erased (${r.phone.slice(0, 8)}…)` : r.phone,
    note: r.note,
    received_at: iso(r.received_at)!,
    due_at: due.toISOString(),
    done_at: iso(r.done_at),
    outcome: r.outcome,
    overdue: r.done_at === null && due.getTime() < Date.now(),
    recorded_by: r.recorded_by,
  };
}

const requestSelect = sql`
  select r.id, r.kind, r.phone, r.note, r.received_at, r.due_at, r.done_at, r.outcome, u.name as recorded_by
    from ${privacyRequests} r left join users u on u.id = r.recorded_by`;

export async function requestPage(db: Queryable, query: PageQuery & { open?: '0' | '1' | undefined }) {
  const where = query.open === '1' ? sql`r.done_at is null` : sql`true`;
  const found = await rows<RequestRow>(
    db,
    sql`${requestSelect} where ${where}
        order by (r.done_at is null) desc, case when r.done_at is null then r.due_at end asc, r.id desc
        limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`,
  );
  const [counted] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${privacyRequests} r where ${where}`);
  return { total_records: counted?.n ?? 0, requests: found.map(toRequest) };
}

async function requestById(db: Queryable, id: number): Promise<PrivacyRequest> {
  const [row] = await rows<RequestRow>(db, sql`${requestSelect} where r.id = ${id}`);
  if (!row) throw notFound();
  return toRequest(row);
}

export async function addRequest(
  deps: AppDeps,
  actor: Actor,
  body: { kind: PrivacyRequest['kind']; phone: string; note?: string | undefined },
  requestId: string,
) {
  return deps.db.transaction(async (tx) => {
    const days = await getSetting(tx, 'privacy_request_days');
    const [created] = await tx
      .insert(privacyRequests)
      .values({
        kind: body.kind,
        phone: body.phone,
        note: body.note ?? null,
        dueAt: new Date(Date.now() + days * 24 * HOUR),
        recordedBy: actor.userId,
      })
      .returning({ id: privacyRequests.id });
    await audit(tx, { actorUserId: actor.userId, action: 'privacy.request', entity: 'privacy_request', entityId: created!.id, after: { kind: body.kind }, requestId });
    return { info: privacyTexts.requestRecorded, request: await requestById(tx, created!.id) };
  });
}

export async function completeRequest(deps: AppDeps, actor: Actor, body: { id: number; outcome: string }, requestId: string) {
  return deps.db.transaction(async (tx) => {
    const done = await tx.execute(sql`
      update ${privacyRequests} set done_at = now(), done_by = ${actor.userId}, outcome = ${body.outcome}
       where id = ${body.id} and done_at is null returning id`);
    if ((done as unknown as { rows: unknown[] }).rows.length === 0) {
      await requestById(tx, body.id); // 404 when there is no such request
      throw conflict(privacyTexts.requestAlreadyDone);
    }
    await audit(tx, { actorUserId: actor.userId, action: 'privacy.request.done', entity: 'privacy_request', entityId: body.id, after: { outcome: body.outcome }, requestId });
    return { info: privacyTexts.requestDone, request: await requestById(tx, body.id) };
  });
}

export async function consentOf(db: Queryable, phone: string): Promise<ConsentState> {
  return { phone, ...(await consentState(db, phone)) };
}

/** Staff record what the person told them, with a note; the wording is the setting's. */
export async function recordConsentByStaff(
  deps: AppDeps,
  actor: Actor,
  body: { phone: string; given: boolean; note: string },
  requestId: string,
) {
  return deps.db.transaction(async (tx) => {
    const wording = await getSetting(tx, 'marketing_consent_wording');
    const changed = await recordConsent(tx, { phone: body.phone, given: body.given, channel: 'staff', wording, note: body.note, recordedBy: actor.userId });
    if (changed) {
      await audit(tx, {
        actorUserId: actor.userId,
        action: body.given ? 'consent.given' : 'consent.withdrawn',
        entity: 'marketing_consent',
        entityId: sha256Hex(body.phone).slice(0, 16),
        after: { channel: 'staff', note: body.note },
        requestId,
      });
    }
    return { info: privacyTexts.consentRecorded, consent: await consentOf(tx, body.phone) };
  });
}

interface BreachRow {
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

function toBreach(r: BreachRow): DataBreach {
  const discovered = new Date(r.discovered_at);
  return {
    id: Number(r.id),
    discovered_at: discovered.toISOString(),
    description: r.description,
    people_affected: Number(r.people_affected),
    data_concerned: r.data_concerned,
    measures: r.measures,
    notified_at: iso(r.notified_at),
    notification_ref: r.notification_ref,
    notify_by: new Date(discovered.getTime() + BREACH_NOTICE_HOURS * HOUR).toISOString(),
    recorded_by: r.recorded_by,
  };
}

const breachSelect = sql`
  select b.id, b.discovered_at, b.description, b.people_affected, b.data_concerned, b.measures, b.notified_at,
         b.notification_ref, u.name as recorded_by
    from ${dataBreaches} b left join users u on u.id = b.recorded_by`;

export async function breachPage(db: Queryable, query: PageQuery) {
  const found = await rows<BreachRow>(
    db,
    sql`${breachSelect} order by b.discovered_at desc, b.id desc limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`,
  );
  const [counted] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${dataBreaches}`);
  return { total_records: counted?.n ?? 0, breaches: found.map(toBreach) };
}

async function breachById(db: Queryable, id: number): Promise<DataBreach> {
  const [row] = await rows<BreachRow>(db, sql`${breachSelect} where b.id = ${id}`);
  if (!row) throw notFound();
  return toBreach(row);
}

export async function recordBreach(
  deps: AppDeps,
  actor: Actor,
  body: { discovered_at: Date; description: string; people_affected: number; data_concerned: string; measures?: string | undefined },
  requestId: string,
) {
  return deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(dataBreaches)
      .values({
        discoveredAt: body.discovered_at,
        description: body.description,
        peopleAffected: body.people_affected,
        dataConcerned: body.data_concerned,
        measures: body.measures ?? null,
        recordedBy: actor.userId,
      })
      .returning({ id: dataBreaches.id });
    await audit(tx, { actorUserId: actor.userId, action: 'breach.record', entity: 'data_breach', entityId: created!.id, after: { ...body, discovered_at: body.discovered_at.toISOString() }, requestId });
    return { info: privacyTexts.breachRecorded, breach: await breachById(tx, created!.id) };
  });
}

export async function markBreachNotified(
  deps: AppDeps,
  actor: Actor,
  body: { id: number; notified_at: Date; notification_ref: string },
  requestId: string,
) {
  return deps.db.transaction(async (tx) => {
    const done = await tx.execute(sql`
      update ${dataBreaches} set notified_at = ${body.notified_at.toISOString()}::timestamptz, notification_ref = ${body.notification_ref}
       where id = ${body.id} and notified_at is null returning id`);
    if ((done as unknown as { rows: unknown[] }).rows.length === 0) {
      await breachById(tx, body.id);
      throw conflict(privacyTexts.breachAlreadyNotified);
    }
    await audit(tx, { actorUserId: actor.userId, action: 'breach.notified', entity: 'data_breach', entityId: body.id, after: { notified_at: body.notified_at.toISOString(), notification_ref: body.notification_ref }, requestId });
    return { info: privacyTexts.breachNotified, breach: await breachById(tx, body.id) };
  });
}

/** The dashboard's privacy warnings: each read off a partial index of the open rows. */
export async function privacyAlerts(db: Queryable) {
  const [requests] = await rows<{ open: number; overdue: number }>(
    db,
    sql`select count(*)::int as open, count(*) filter (where due_at < now())::int as overdue
          from ${privacyRequests} where done_at is null`,
  );
  const open = await rows<BreachRow>(db, sql`${breachSelect} where b.notified_at is null order by b.discovered_at`);
  return {
    open_requests: requests?.open ?? 0,
    overdue_requests: requests?.overdue ?? 0,
    breaches: open.map(toBreach).map((b) => ({ id: b.id, description: b.description, discovered_at: b.discovered_at, notify_by: b.notify_by })),
  };
}

/**
 * What the retention job has done, for the metrics: when it last ran, and the people pseudonymised
 * and SMS texts emptied over all its runs (one small row per run).
 */
export async function retentionFigures(db: Queryable): Promise<{ lastRunAt: Date | null; peoplePseudonymised: number; smsTextsEmptied: number }> {
  const [r] = await rows<{ last: Date | string | null; people: number | string | null; texts: number | string | null }>(
    db,
    sql`select max(ran_at) as last, sum(people_pseudonymised) as people, sum(sms_texts_emptied) as texts from ${retentionRuns}`,
  );
  return {
    lastRunAt: r?.last ? new Date(r.last) : null,
    peoplePseudonymised: Number(r?.people ?? 0),
    smsTextsEmptied: Number(r?.texts ?? 0),
  };
}
