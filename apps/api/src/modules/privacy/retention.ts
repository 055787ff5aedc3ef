import { sql } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import { retentionRuns } from '../../db/schema/index.ts';
import type { Database } from '../../db/client.ts';
import { audit } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { erasePhone } from './erase.ts';

/** People pseudonymised per run, and SMS texts emptied per run: each run is a bounded write. */
const PEOPLE_PER_RUN = 200;
const TEXTS_PER_RUN = 20_000;
const DAY = 86_400_000;

/**
 * The daily retention job (decision 025): people with no subscription, payment, message or sign-in
 * for `privacy_retention_years` are pseudonymised as an erasure would; SMS texts older than
 * `sms_text_retention_days` are emptied, sent and received alike, their metadata kept. Reported to
 * the audit log; the metric counts both kinds of text.
 */
export async function runRetention(db: Database['db'], now = new Date()) {
  const years = await getSetting(db, 'privacy_retention_years');
  const textDays = await getSetting(db, 'sms_text_retention_days');
  const cutoff = new Date(now.getTime() - years * 365.25 * DAY).toISOString();
  const textCutoff = new Date(now.getTime() - textDays * DAY).toISOString();

  const quiet = await rows<{ phone: string }>(
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
        limit ${PEOPLE_PER_RUN}`,
  );

  return db.transaction(async (tx) => {
    // The other processes' retention runs wait: one run at a time.
    await tx.execute(sql`lock table ${retentionRuns} in exclusive mode`);
    for (const { phone } of quiet) await erasePhone(tx, phone, 'retention');

    const [last] = await rows<{ watermark: number | null }>(tx, sql`select max(sms_watermark_id) as watermark from ${retentionRuns}`);
    const from = Number(last?.watermark ?? 0);
    const [emptied] = await rows<{ n: number; top: number | null }>(
      tx,
      sql`with batch as (
            select id from sms_messages where id > ${from} and created_at < ${textCutoff}::timestamptz
             order by id limit ${TEXTS_PER_RUN}),
          done as (update sms_messages m set body = '' from batch where m.id = batch.id and m.body <> '' returning m.id)
          select (select count(*)::int from done) as n, (select max(id) from batch) as top`,
    );
    const watermark = emptied?.top === null || emptied?.top === undefined ? from : Number(emptied.top);
    // Received texts age the same way as sent ones (off sms_inbound_received_idx, oldest first).
    const [received] = await rows<{ n: number }>(
      tx,
      sql`with batch as (
            select id from sms_inbound where received_at < ${textCutoff}::timestamptz and text <> ''
             order by received_at, id limit ${TEXTS_PER_RUN}),
          done as (update sms_inbound i set text = '' from batch where i.id = batch.id returning i.id)
          select count(*)::int as n from done`,
    );
    const sentEmptied = emptied?.n ?? 0;
    const receivedEmptied = received?.n ?? 0;
    const report = {
      people_pseudonymised: quiet.length,
      sms_texts_emptied: sentEmptied + receivedEmptied,
      sent_sms_texts_emptied: sentEmptied,
      received_sms_texts_emptied: receivedEmptied,
    };
    await tx.insert(retentionRuns).values({
      ranAt: now,
      peoplePseudonymised: report.people_pseudonymised,
      smsTextsEmptied: report.sms_texts_emptied,
      smsWatermarkId: watermark,
    });
    await audit(tx, {
      actorUserId: null,
      action: 'privacy.retention',
      entity: 'privacy_subject',
      after: { ...report, retention_years: years, sms_text_retention_days: textDays },
    });
    return report;
  });
}
