import type { Database } from '../../db/client.ts';
import { audit } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { erasePhone } from './erase.ts';
import * as q from './queries.ts';

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

  const quiet = await q.quietPhones(db, cutoff, PEOPLE_PER_RUN);

  return db.transaction(async (tx) => {
    await q.lockRetentionRuns(tx);
    for (const { phone } of quiet) await erasePhone(tx, phone, 'retention');

    const from = await q.sentTextsWatermark(tx);
    const emptied = await q.emptyOldSentTexts(tx, from, textCutoff, TEXTS_PER_RUN);
    const watermark = emptied?.top === null || emptied?.top === undefined ? from : Number(emptied.top);
    const receivedEmptied = await q.emptyOldReceivedTexts(tx, textCutoff, TEXTS_PER_RUN);
    const sentEmptied = emptied?.n ?? 0;
    const report = {
      people_pseudonymised: quiet.length,
      sms_texts_emptied: sentEmptied + receivedEmptied,
      sent_sms_texts_emptied: sentEmptied,
      received_sms_texts_emptied: receivedEmptied,
    };
    await q.recordRetentionRun(tx, {
      ranAt: now,
      peoplePseudonymised: report.people_pseudonymised,
      smsTextsEmptied: report.sms_texts_emptied,
      smsWatermarkId: watermark,
    });
    await audit(tx, 'privacy.retention', null, { actorUserId: null }, { after: { ...report, retention_years: years, sms_text_retention_days: textDays } });
    return report;
  });
}
