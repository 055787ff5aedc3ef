import type { Db, Queryable } from '../../db/client.ts';
import {
  analyseRetentionSummaries,
  clearRetentionMarks,
  lockRetentionSummaries,
  resetRetentionSummaries,
  subscriberIdsAfter,
  subscriptionsOfSubscribers,
  summarisedCoversOf,
  takeRetentionMarks,
  writeRetentionPieces,
  type SubscriptionHistoryRow,
} from './queries.ts';
import { channelOf, type HistoryRow } from './retention-formulas.ts';
import { emptyPieces, piecesDelta, subscriberPieces, type Pieces } from './retention-summary.ts';

/**
 * Keeps the retention summaries (decision 043): takes the subscribers a trigger marked, and in one
 * transaction per batch takes back what their summarised covers added and adds what their current
 * subscriptions add. Run before every retention read (so a read is exact) and by the worker.
 */

const BATCH = 2_000;

/** A stored subscription as the formulas read it. */
export const historyRow = (r: SubscriptionHistoryRow): HistoryRow => ({
  id: Number(r.id),
  subscriberId: Number(r.subscriber_id),
  categoryId: r.bet_category_id === null ? null : Number(r.bet_category_id),
  medium: r.medium,
  source: r.source,
  channel: r.channel ?? channelOf(r.source, r.origin ?? null),
  amountCents: Number(r.amount_cents),
  createdAt: new Date(r.created_at),
  startsAt: new Date(r.starts_at),
  expiresAt: new Date(r.expires_at),
  reversedAt: r.reversed_at === null ? null : new Date(r.reversed_at),
});

function bySubscriber(found: SubscriptionHistoryRow[]): Map<number, HistoryRow[]> {
  const out = new Map<number, HistoryRow[]>();
  for (const r of found) {
    const row = historyRow(r);
    const list = out.get(row.subscriberId);
    if (list) list.push(row);
    else out.set(row.subscriberId, [row]);
  }
  return out;
}

function piecesOf(histories: Map<number, HistoryRow[]>) {
  const pieces = emptyPieces();
  const covers = [];
  const intervals = [];
  for (const rows of histories.values()) {
    const made = subscriberPieces(rows, pieces);
    covers.push(...made.covers);
    intervals.push(...made.intervals);
  }
  return { pieces, covers, intervals };
}

const split = (k: string) => k.split('|');

function toWrite(delta: Pieces, made: ReturnType<typeof piecesOf>) {
  return {
    covers: made.covers.map((c) => ({
      subscription_id: c.id,
      subscriber_id: c.subscriberId,
      category_id: c.categoryId,
      medium: c.medium,
      source: c.source,
      amount_cents: c.amountCents,
      created_at: c.createdAt.toISOString(),
      starts_at: c.startsAt.toISOString(),
      expires_at: c.expiresAt.toISOString(),
      channel: c.channel,
      renewal_lag_ms: c.renewalLagMs,
    })),
    intervals: made.intervals.map((i) => ({
      subscriber_id: i.subscriberId,
      dim: i.dim,
      key: i.key,
      starts_at: i.startsAt.toISOString(),
      ends_at: i.endsAt.toISOString(),
      next_starts_at: i.nextStartsAt?.toISOString() ?? null,
    })),
    days: [...delta.days].map(([k, d]) => {
      const [dim, key, day] = split(k);
      return {
        dim,
        key,
        day,
        cover_in: d.coverIn,
        cover_out: d.coverOut,
        churn_day: d.churnDay,
        churn_week: d.churnWeek,
        churn_month: d.churnMonth,
        income_cents: d.incomeCents,
        retained_day_cents: d.retainedDayCents,
        retained_week_cents: d.retainedWeekCents,
        retained_month_cents: d.retainedMonthCents,
        payers_day: d.payersDay,
        payers_week: d.payersWeek,
        payers_month: d.payersMonth,
        churn_so_far_week: d.churnSoFarWeek,
        churn_so_far_month: d.churnSoFarMonth,
      };
    }),
    ends: [...delta.ends].map(([k, n]) => {
      const [dim, key, day, lag] = split(k);
      return { dim, key, day, lag_days: Number(lag), n };
    }),
    payers: [...delta.payers].map(([k, n]) => {
      const [dim, key, day, prev] = split(k);
      return { dim, key, day, prev_day: prev, n };
    }),
    payersSince: [...delta.payersSince].map(([k, n]) => {
      const [dim, key, since, day] = split(k);
      return { dim, key, since, day, n };
    }),
    cohorts: [...delta.cohorts].map(([k, c]) => {
      const [dim, key, cohort, month] = split(k);
      return { dim, key, cohort, month, members: c.members, active: c.active, income_cents: c.incomeCents };
    }),
  };
}

/** One batch of marked subscribers, in the caller's transaction; how many were taken. */
export async function summariseBatch(tx: Queryable, limit = BATCH): Promise<number> {
  await lockRetentionSummaries(tx);
  const ids = await takeRetentionMarks(tx, limit);
  if (ids.length === 0) return 0;
  const next = piecesOf(bySubscriber(await subscriptionsOfSubscribers(tx, ids)));
  const old = piecesOf(bySubscriber(await summarisedCoversOf(tx, ids)));
  await writeRetentionPieces(tx, ids, toWrite(piecesDelta(next.pieces, old.pieces), next));
  return ids.length;
}

/** Every marked subscriber, batch by batch (each batch its own transaction); how many. */
export async function summariseMarked(db: Queryable, onBatch?: (done: number) => void): Promise<number> {
  let done = 0;
  for (;;) {
    const n = await db.transaction((tx) => summariseBatch(tx));
    if (n === 0) return done;
    done += n;
    onBatch?.(done);
  }
}

/** Rows written per statement by a rebuild. */
const WRITE_CHUNK = 20_000;

const chunks = <T>(list: T[]) => Array.from({ length: Math.ceil(list.length / WRITE_CHUNK) }, (_, i) => list.slice(i * WRITE_CHUNK, (i + 1) * WRITE_CHUNK));

/**
 * Rebuild from the subscriptions (npm run db:refresh-summaries, the bench generator): how many
 * subscribers. The marks are dropped first; then, in one transaction holding the summarisers' lock,
 * the summaries are emptied and every subscriber cut in pages: their covers and runs written page by
 * page, the pieces added up in memory (they are per day and key, not per subscriber) and written
 * once. A purchase during the rebuild marks its subscriber; the marks are summarised after it.
 */
export async function rebuildRetentionSummaries(db: Db, onBatch?: (done: number) => void): Promise<number> {
  await clearRetentionMarks(db);
  const none = toWrite(emptyPieces(), { pieces: emptyPieces(), covers: [], intervals: [] });
  const done = await db.transaction(async (tx) => {
    await lockRetentionSummaries(tx);
    await resetRetentionSummaries(tx);
    const pieces = emptyPieces();
    let count = 0;
    for (let after = 0; ; ) {
      const ids = await subscriberIdsAfter(tx, after, BATCH * 5);
      if (ids.length === 0) break;
      after = ids[ids.length - 1]!;
      const covers = [];
      const intervals = [];
      for (const rows of bySubscriber(await subscriptionsOfSubscribers(tx, ids)).values()) {
        const made = subscriberPieces(rows, pieces);
        covers.push(...made.covers);
        intervals.push(...made.intervals);
      }
      const page = toWrite(emptyPieces(), { pieces, covers, intervals });
      for (const part of chunks(page.covers)) await writeRetentionPieces(tx, [], { ...none, covers: part });
      for (const part of chunks(page.intervals)) await writeRetentionPieces(tx, [], { ...none, intervals: part });
      count += ids.length;
      onBatch?.(count);
    }
    const sums = toWrite(pieces, { pieces, covers: [], intervals: [] });
    for (const table of ['days', 'ends', 'payers', 'payersSince', 'cohorts'] as const) {
      for (const part of chunks<unknown>(sums[table])) await writeRetentionPieces(tx, [], { ...none, [table]: part });
    }
    return count;
  });
  await analyseRetentionSummaries(db);
  await summariseMarked(db);
  return done;
}
