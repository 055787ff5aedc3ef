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
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { audit, byStaff } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { consentState, customerTextFor, isErasedHash, recordConsent } from '../sms/service.ts';
import { exclusionsForExport } from '../exclusions/service.ts';
import { erasePhone, type ErasedCounts } from './erase.ts';
import * as q from './queries.ts';

export { erasePhone } from './erase.ts';
export { runRetention } from './retention.ts';

const BREACH_NOTICE_HOURS = 72;
const HOUR = 3_600_000;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

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
/** A person's self-exclusions and under-18 mark as rows of their export (decision 059). */
async function exclusionRecords(db: Queryable, phone: string): Promise<Record<string, unknown>[]> {
  const { exclusions, marks } = await exclusionsForExport(db, phone);
  return [
    ...exclusions.map((x) => ({
      kind: 'self_exclusion',
      id: x.id,
      phone: x.phone,
      period: x.period,
      channel: x.channel,
      starts_at: x.startsAt,
      ends_at: x.endsAt,
      recorded_by: x.recordedBy,
      note: x.note,
      end_told_at: x.endToldAt,
    })),
    ...marks.map((m) => ({ kind: 'under_18_mark', phone: m.phone, note: m.note, marked_by: m.markedBy, marked_at: m.markedAt })),
  ];
}

export async function subjectOf(deps: AppDeps, actor: Actor, phone: string, requestId: string): Promise<PrivacySubject> {
  const db = deps.db;
  const hash = sha256Hex(phone);
  const { subscriberIds, clientIds } = await q.peopleOfPhone(db, phone);
  const held = await q.subjectRecords(db, { phone, hash, subscriberIds, clientIds });
  const payments = plain(held.payments);
  const subject: PrivacySubject = {
    phone,
    generated_at: new Date().toISOString(),
    erased: await isErasedHash(db, hash),
    about: {
      export: PRIVACY_SUBJECT_INTRO,
      sections: Object.fromEntries(PRIVACY_SUBJECT_SECTIONS.map((section) => [section.key, section.about])),
    },
    subscribers: plain(held.subscribers),
    clients: plain(held.clients),
    platform_accounts: plain(held.platform_accounts),
    subscriptions: plain(held.subscriptions),
    payments,
    payment_requests: plain(held.payment_requests),
    sms_sent: plain(held.sms_sent.map((m) => ({ ...m, text: smsTextForStaff(m.intent, m.text) }))),
    sms_received: plain(held.sms_received),
    portal_sign_ins: plain(held.portal_sign_ins),
    portal_codes: plain(held.portal_codes),
    bets: plain(held.bets),
    bonuses: plain(held.bonuses),
    bonus_payments: plain(held.bonus_payments),
    ledger: plain(held.ledger),
    opt_outs: plain(held.opt_outs),
    consents: plain(held.consents),
    age_declaration: plain(held.age_declaration),
    exclusions: plain(await exclusionRecords(db, phone)),
    requests: plain(held.requests),
    audit: plain(held.audit),
  };
  await audit(db, 'privacy.export', hash.slice(0, 16), byStaff(actor, requestId), {
    after: { subscribers: subscriberIds, clients: clientIds, payments: payments.length },
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
    await q.closeErasureRequests(tx, sha256Hex(body.phone), actor.userId);
    await audit(tx, 'privacy.erase', sha256Hex(body.phone).slice(0, 16), byStaff(actor, requestId), { after: { reason: body.reason, ...erased } });
    return { info: touched ? privacyTexts.erased : privacyTexts.nothingToErase, erased };
  });
}

function toRequest(r: q.RequestRow): PrivacyRequest {
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

export async function requestPage(db: Queryable, query: PageQuery & { open?: '0' | '1' | undefined }) {
  const { found, total } = await q.requestPage(db, { openOnly: query.open === '1', perPage: query.perPage, offset: (query.page - 1) * query.perPage });
  return { total_records: total, requests: found.map(toRequest) };
}

async function requestById(db: Queryable, id: number): Promise<PrivacyRequest> {
  const row = await q.requestById(db, id);
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
    const created = await q.insertRequest(tx, {
      kind: body.kind,
      phone: body.phone,
      note: body.note ?? null,
      dueAt: new Date(Date.now() + days * 24 * HOUR),
      recordedBy: actor.userId,
    });
    await audit(tx, 'privacy.request', created, byStaff(actor, requestId), { after: { kind: body.kind } });
    return { info: privacyTexts.requestRecorded, request: await requestById(tx, created) };
  });
}

export async function completeRequest(deps: AppDeps, actor: Actor, body: { id: number; outcome: string }, requestId: string) {
  return deps.db.transaction(async (tx) => {
    if (!(await q.closeRequest(tx, body.id, actor.userId, body.outcome))) {
      await requestById(tx, body.id); // 404 when there is no such request
      throw conflict(privacyTexts.requestAlreadyDone);
    }
    await audit(tx, 'privacy.request.done', body.id, byStaff(actor, requestId), { after: { outcome: body.outcome } });
    return { info: privacyTexts.requestDone, request: await requestById(tx, body.id) };
  });
}

export async function consentOf(db: Queryable, phone: string): Promise<ConsentState> {
  return { phone, ...(await consentState(db, phone)) };
}

/** Staff record what the person told them, with a note; the wording is the setting's, in the person's language. */
export async function recordConsentByStaff(
  deps: AppDeps,
  actor: Actor,
  body: { phone: string; given: boolean; note: string },
  requestId: string,
) {
  return deps.db.transaction(async (tx) => {
    const wording = await customerTextFor(tx, body.phone, 'marketing_consent_wording');
    const changed = await recordConsent(tx, { phone: body.phone, given: body.given, channel: 'staff', wording, note: body.note, recordedBy: actor.userId });
    if (changed) {
      await audit(tx, body.given ? 'consent.given' : 'consent.withdrawn', sha256Hex(body.phone).slice(0, 16), byStaff(actor, requestId), {
        after: { channel: 'staff', note: body.note },
      });
    }
    return { info: privacyTexts.consentRecorded, consent: await consentOf(tx, body.phone) };
  });
}

function toBreach(r: q.BreachRow): DataBreach {
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

export async function breachPage(db: Queryable, query: PageQuery) {
  const { found, total } = await q.breachPage(db, { perPage: query.perPage, offset: (query.page - 1) * query.perPage });
  return { total_records: total, breaches: found.map(toBreach) };
}

async function breachById(db: Queryable, id: number): Promise<DataBreach> {
  const row = await q.breachById(db, id);
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
    const created = await q.insertBreach(tx, {
      discoveredAt: body.discovered_at,
      description: body.description,
      peopleAffected: body.people_affected,
      dataConcerned: body.data_concerned,
      measures: body.measures ?? null,
      recordedBy: actor.userId,
    });
    await audit(tx, 'breach.record', created, byStaff(actor, requestId), { after: { ...body, discovered_at: body.discovered_at.toISOString() } });
    return { info: privacyTexts.breachRecorded, breach: await breachById(tx, created) };
  });
}

export async function markBreachNotified(
  deps: AppDeps,
  actor: Actor,
  body: { id: number; notified_at: Date; notification_ref: string },
  requestId: string,
) {
  return deps.db.transaction(async (tx) => {
    if (!(await q.markBreachNotified(tx, body.id, body.notified_at, body.notification_ref))) {
      await breachById(tx, body.id);
      throw conflict(privacyTexts.breachAlreadyNotified);
    }
    await audit(tx, 'breach.notified', body.id, byStaff(actor, requestId), {
      after: { notified_at: body.notified_at.toISOString(), notification_ref: body.notification_ref },
    });
    return { info: privacyTexts.breachNotified, breach: await breachById(tx, body.id) };
  });
}

/** The dashboard's privacy warnings: each read off a partial index of the open rows. */
export async function privacyAlerts(db: Queryable) {
  const requests = await q.openRequestCounts(db);
  const open = await q.unnotifiedBreaches(db);
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
  const r = await q.retentionTotals(db);
  return {
    lastRunAt: r?.last ? new Date(r.last) : null,
    peoplePseudonymised: Number(r?.people ?? 0),
    smsTextsEmptied: Number(r?.texts ?? 0),
  };
}
