import { timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { normaliseKenyanPhone, SmsDeliveryReport, type PageQuery, type SmsLogQuery } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { invalid, notFound } from '../../http/errors.ts';
import type { SmsBalance, SmsGateway } from '../../integrations/sms/gateway.ts';
import { requireClientFacts } from '../clients/service.ts';
import { subscriberById } from '../tips-subscribers/service.ts';
import * as q from './queries.ts';

const BALANCE_TTL_MS = 60_000;
const balances = new WeakMap<SmsGateway, { at: number; value: SmsBalance | null }>();

/**
 * The SMS gateway's balance for the dashboard, asked at most once a minute per process; null when
 * the gateway cannot tell.
 */
export async function currentSmsBalance(deps: AppDeps): Promise<SmsBalance | null> {
  const cached = balances.get(deps.sms);
  if (cached && Date.now() - cached.at < BALANCE_TTL_MS) return cached.value;
  const value = await deps.sms.balance().catch(() => null);
  balances.set(deps.sms, { at: Date.now(), value });
  return value;
}

const pageOf = (query: PageQuery): q.Page => ({ limit: query.perPage, offset: (query.page - 1) * query.perPage });

/** What staff type in the phone search (07.., +2547.., a part of it) as digits of the stored number. */
export function phoneSearchDigits(search: string): string | undefined {
  const full = normaliseKenyanPhone(search);
  if (full) return full;
  const digits = search.replace(/\D/g, '');
  if (!digits) return undefined;
  // 07.. and 01.. are the local form of 2547.. and 2541..; other digits are any part of the number.
  return /^0[17]/.test(digits) ? `254${digits.slice(1)}` : digits;
}

/** The SMS log: one page of messages, newest first, and how many there are of each status. */
export async function smsLogPage(db: Queryable, query: z.output<typeof SmsLogQuery>) {
  const phoneContains = phoneSearchDigits(query.search);
  const page = await q.findMessages(db, { status: query.status, phoneContains }, pageOf(query));
  const status_counts = await q.countByStatus(db, phoneContains);
  return { total_records: page.total, status_counts, messages: page.messages };
}

export async function smsMessageDetail(db: Queryable, id: number) {
  const message = await q.findMessage(db, id);
  if (!message) throw notFound('This message was not found.');
  return { message };
}

/** A client's messages; staff only for their own clients (404 otherwise). */
export async function clientMessages(db: Queryable, actor: Actor, query: PageQuery & { client_id: number }) {
  const client = await requireClientFacts(db, actor, query.client_id);
  const page = await q.findMessages(db, { person: { clientId: client.id, phone: client.phone } }, pageOf(query));
  return { total_records: page.total, messages: page.messages };
}

export async function subscriberMessages(db: Queryable, query: PageQuery & { subscriber_id: number }) {
  const subscriber = await subscriberById(db, query.subscriber_id);
  const page = await q.findMessages(
    db,
    { person: { subscriberId: subscriber.id, phone: subscriber.phone } },
    pageOf(query),
  );
  return { total_records: page.total, messages: page.messages };
}

/** The webhook's secret path segment, compared in constant time. */
export function isWebhookSecret(deps: AppDeps, given: string): boolean {
  const expected = Buffer.from(deps.config.webhookSecret);
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Africa's Talking's delivery statuses: Success is delivered, Failed and Rejected are final failures. */
function outcomeOf(status: string): q.DeliveryOutcome {
  if (status === 'Success') return 'delivered';
  if (status === 'Failed' || status === 'Rejected') return 'failed';
  return 'in-progress';
}

/**
 * Records a delivery report. Returns whether the message is known; an unknown id is acknowledged
 * all the same (the gateway would otherwise keep retrying it).
 */
export async function recordDeliveryReport(db: Queryable, body: unknown): Promise<{ known: boolean; providerMessageId: string }> {
  const parsed = SmsDeliveryReport.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
    throw invalid(errors);
  }
  const report = parsed.data;
  const known = await q.applyDeliveryReport(db, {
    providerMessageId: report.id,
    outcome: outcomeOf(report.status),
    providerStatus: report.status,
    networkCode: report.networkCode || null,
    failureReason: report.failureReason || null,
  });
  return { known, providerMessageId: report.id };
}
