import type { PullRun } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { mpesaPullRuns } from '../../db/schema/index.ts';
import { darajaFor, darajaTimestamp, type PulledTransaction } from '../../integrations/mpesa/daraja.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { getSetting } from '../settings/service.ts';
import { storeC2bConfirmation } from '../mpesa/service.ts';
import * as q from './queries.ts';

const HOUR = 3_600_000;
/** Daraja keeps 48 hours; a little less so the start is never refused as too old. */
const OLDEST_MS = 47.5 * HOUR;
/** Each run starts an hour before the last one ended: a transaction recorded late is still found. */
const OVERLAP_MS = HOUR;
/** A safety stop for a Daraja that keeps answering pages. */
const MAX_PAGES = 200;

type RunRow = typeof mpesaPullRuns.$inferSelect;

export function pullRunOf(r: RunRow): PullRun {
  return {
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    window_from: r.windowFrom.toISOString(),
    window_to: r.windowTo.toISOString(),
    status: r.status,
    rows_seen: r.rowsSeen,
    rows_recovered: r.rowsRecovered,
    error: r.error,
  };
}

export async function lastPullRun(deps: AppDeps): Promise<RunRow | null> {
  return (await q.lastPullRun(deps.db)) ?? null;
}

/** A pulled transaction as the C2B confirmation Daraja would have sent for it. */
function confirmationOf(shortCode: string | undefined, t: PulledTransaction) {
  const at = Date.parse(t.trxDate);
  return {
    TransactionType: t.transactiontype ?? 'Pay Bill',
    TransID: String(t.transactionId),
    TransTime: Number.isNaN(at) ? '' : darajaTimestamp(new Date(at)),
    TransAmount: String(t.amount),
    BusinessShortCode: shortCode ?? '',
    BillRefNumber: t.billreference ?? '',
    MSISDN: t.msisdn === null || t.msisdn === undefined ? '' : String(t.msisdn),
    FirstName: t.sender ?? '',
    MiddleName: '',
    LastName: '',
    pulled: t,
  };
}

/**
 * Stores the page's transactions Betdesk has not seen, each through the confirmation path (source
 * `pull`), in one transaction. Returns how many were new.
 */
async function ingestPage(deps: AppDeps, page: PulledTransaction[]): Promise<number> {
  const ids = [...new Set(page.map((t) => String(t.transactionId)))];
  if (ids.length === 0) return 0;
  const known = new Set(await q.receiptsStored(deps.db, ids));
  const unseen = page.filter((t) => !known.has(String(t.transactionId)));
  if (unseen.length === 0) return 0;
  const shortCode = deps.config.mpesa.shortcode;
  const { recovered, smsQueued } = await deps.db.transaction(async (tx) => {
    let recovered = 0;
    let smsQueued = false;
    for (const t of unseen) {
      const receipt = await storeC2bConfirmation(tx, shortCode, confirmationOf(shortCode, t), null, 'pull');
      if (receipt.stored) recovered += 1;
      if (receipt.outcome?.activatedSms) smsQueued = true;
    }
    return { recovered, smsQueued };
  });
  if (smsQueued) await deps.jobs.nudge(QUEUES.smsDispatch);
  return recovered;
}

/**
 * One Pull Transactions run: asks Daraja for the hours since the last good run (at least the
 * interval plus an hour's overlap, at most the 48 hours Daraja keeps), page by page, and stores every
 * receipt not seen. Returns null when M-Pesa is not configured (nothing is called), or when the run
 * is not due yet unless `force`.
 */
export async function runPull(deps: AppDeps, options: { force?: boolean; now?: Date } = {}): Promise<RunRow | null> {
  const daraja = darajaFor(deps.config.mpesa, deps.config.webhookSecret);
  if (!daraja) return null;
  const intervalHours = Number(await getSetting(deps.db, 'mpesa_pull_interval_hours'));
  const now = options.now ?? new Date();
  const last = await lastPullRun(deps);
  if (!options.force) {
    if (intervalHours <= 0) return null;
    // A few minutes' slack: an hourly cron is never skipped for starting a moment early.
    if (last && last.startedAt.getTime() > now.getTime() - intervalHours * HOUR + 5 * 60_000) return null;
  }
  const lastGood = await q.lastGoodPullEnd(deps.db);
  const usual = now.getTime() - (Math.max(intervalHours, 1) * HOUR + OVERLAP_MS);
  const sinceLastGood = lastGood ? lastGood.getTime() - OVERLAP_MS : -Infinity;
  const windowFrom = new Date(Math.max(now.getTime() - OLDEST_MS, Math.min(usual, sinceLastGood)));

  const runId = await q.startPullRun(deps.db, { windowFrom, windowTo: now, startedAt: now });
  let pages = 0;
  let seen = 0;
  let recovered = 0;
  try {
    for (let offset = 0; pages < MAX_PAGES; pages += 1) {
      const page = await daraja.pullTransactions(windowFrom, now, offset);
      if (page.transactions.length === 0) break;
      seen += page.transactions.length;
      recovered += await ingestPage(deps, page.transactions);
      offset += page.transactions.length;
    }
    const done = await q.finishPullRun(deps.db, runId, { status: 'ok', pages, rowsSeen: seen, rowsRecovered: recovered });
    return done;
  } catch (error) {
    const failed = await q.finishPullRun(deps.db, runId, {
      status: 'failed',
      pages,
      rowsSeen: seen,
      rowsRecovered: recovered,
      error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
    });
    return failed;
  }
}
