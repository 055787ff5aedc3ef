import { addDays, centsToKes, defaultRange, nairobiDayOf, nairobiRange, type RecoveryFigures, type RecoveryQuery } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import type { Queryable } from '../../db/client.ts';
import type { CsvTable } from '../../http/csv.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { requestPackagePayment } from '../mpesa/service.ts';
import { packageLink } from '../../customer-texts/links.ts';
import { getSetting } from '../settings/service.ts';
import { promotionalTextFor, queueSms } from '../sms/service.ts';
import * as q from './queries.ts';

const MINUTE_MS = 60 * 1000;
/** Failures older than this are not followed up any more (a job that was off for days must not spam). */
const LOOK_BACK_MS = 2 * 24 * 60 * MINUTE_MS;

/** `hour` o'clock (Nairobi) on the day after the Nairobi day of `at`. */
export function reminderTime(at: Date, hour: number): Date {
  const nextDay = addDays(nairobiDayOf(at), 1);
  return new Date(nairobiRange({ from: nextDay }).start!.getTime() + hour * 60 * MINUTE_MS);
}

/** Gives each new recoverable failure its one follow-up, due after the delay or at the reminder hour. */
async function discover(deps: AppDeps, now: Date): Promise<number> {
  const failures = await q.unfollowedFailures(deps.db, new Date(now.getTime() - LOOK_BACK_MS));
  if (failures.length === 0) return 0;
  const delay = await getSetting(deps.db, 'recovery_retry_delay_minutes');
  const hour = await getSetting(deps.db, 'recovery_reminder_hour');
  const values = failures.flatMap((f) => {
    const kind = q.classOf(f.result_code);
    if (kind === 'never') return [];
    return [
      {
        stkRequestId: f.id,
        kind,
        resultCode: f.result_code,
        subscriberId: f.subscriber_id,
        packageId: f.package_id,
        failedRequestAt: f.requested_at,
        dueAt: kind === 'retry' ? new Date(f.settled_at.getTime() + delay * MINUTE_MS) : reminderTime(f.settled_at, hour),
      },
    ];
  });
  if (values.length === 0) return 0;
  // The unique stk_request_id makes a second discovery of the same failure a no-op.
  return q.insertFollowUps(deps.db, values);
}

/**
 * The payment-recovery job: new failures get their follow-up; due ones are cancelled when the
 * subscriber paid meanwhile (or, for a retry, is covered again), else retried once by STK push or
 * reminded once by a transactional SMS. Returns what it did.
 */
export async function runRecovery(deps: AppDeps, now = new Date()) {
  const found = await discover(deps, now);
  const out = { found, retried: 0, reminded: 0, cancelled: 0, skipped: 0 };
  for (;;) {
    const due = await q.claimDue(deps.db, now);
    if (!due) break;
    if (await q.paidSince(deps.db, due.subscriberId, due.failedRequestAt)) {
      await q.settle(deps.db, due.id, { status: 'cancelled', note: 'Paid after the failed request' });
      out.cancelled += 1;
      continue;
    }
    const facts = await q.reminderFacts(deps.db, due.stkRequestId);
    if (!facts) {
      await q.settle(deps.db, due.id, { status: 'skipped', note: 'The request or its package is gone' });
      out.skipped += 1;
      continue;
    }
    if (due.kind === 'retry') {
      if (await q.coveredNow(deps.db, due.subscriberId, due.packageId, now)) {
        await q.settle(deps.db, due.id, { status: 'cancelled', note: 'Already covered by a running subscription' });
        out.cancelled += 1;
        continue;
      }
      const retryId = await requestPackagePayment(deps, { subscriberId: due.subscriberId, phone: facts.phone, packageId: due.packageId, requestId: null, origin: facts.origin }).catch(
        () => null,
      );
      if (retryId === null) {
        await q.settle(deps.db, due.id, { status: 'skipped', note: 'M-Pesa refused the retry, or the package is no longer on sale' });
        out.skipped += 1;
      } else {
        await q.settle(deps.db, due.id, { status: 'done', retryStkRequestId: retryId });
        out.retried += 1;
      }
      continue;
    }
    const queued = await deps.db.transaction(async (tx) => {
      const id = await queueSms(tx, {
        intent: 'payment.recovery-reminder',
        dedupeKey: `payment-recovery:${due.id}`,
        to: facts.phone,
        body: await promotionalTextFor(tx, facts.phone, 'sms.recovery_reminder', {
          amount: centsToKes(facts.amountCents).toFixed(0),
          package: facts.packageName,
          // The package's portal page, where it is paid again (the site's root is the staff app).
          link: packageLink(deps.config, due.packageId),
          paybill: deps.config.mpesa.api?.shortcode ?? '',
          account: facts.accountReference,
        }),
        createdBy: null,
        subscriberId: due.subscriberId,
        smsClass: 'transactional',
      });
      if (id === null) await q.settle(tx, due.id, { status: 'skipped', note: 'Nothing may be sent to this phone' });
      return id !== null;
    });
    if (queued) out.reminded += 1;
    else out.skipped += 1;
  }
  if (out.reminded > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  return out;
}

const noFigures = (): RecoveryFigures => ({
  failed_by_class: { retry: 0, remind: 0, never: 0 },
  retries: 0,
  reminders: 0,
  recovered_amount: 0,
  recovered_payments: 0,
});

/** The recovery figures per key of the split (the key 'all' without one), in cents until the end. */
function figuresByKey(f: Awaited<ReturnType<typeof q.recoveryFigures>>): Map<string, RecoveryFigures & { cents: number }> {
  const out = new Map<string, RecoveryFigures & { cents: number }>();
  const of = (key: string) => {
    let found = out.get(key);
    if (!found) out.set(key, (found = { ...noFigures(), cents: 0 }));
    return found;
  };
  for (const r of f.failed) of(r.key).failed_by_class[q.classOf(r.resultCode)] += r.n;
  for (const r of f.done) {
    if (r.kind === 'retry') of(r.key).retries += r.n;
    if (r.kind === 'remind') of(r.key).reminders += r.n;
  }
  for (const r of f.recovered) {
    of(r.key).cents += r.cents;
    of(r.key).recovered_payments += r.payments;
  }
  return out;
}

const inKes = ({ cents, ...figures }: RecoveryFigures & { cents: number }): RecoveryFigures => ({ ...figures, recovered_amount: centsToKes(cents) });

/**
 * The recovery figures of the range, and with `group_by` one group per key (labelled by `labelOf`,
 * the retention report's labels); the groups add up to the whole.
 */
export async function recoveryReport(db: Queryable, query: RecoveryQuery, labelOf: (key: string) => string = (key) => key) {
  const { from, to } = defaultRange({ from: query.from, to: query.to, group: 'month' });
  const { start, end } = nairobiRange({ from, to });
  const found = await q.recoveryFigures(db, start!, end!, query.group_by);
  // Each request, follow-up and payment is in one group: the whole is the groups added up.
  const asWhole = <T extends { key: string }>(rows: T[]) => rows.map((r) => ({ ...r, key: 'all' }));
  const whole = figuresByKey({ failed: asWhole(found.failed), done: asWhole(found.done), recovered: asWhole(found.recovered) }).get('all');
  const split = query.group_by ? figuresByKey(found) : new Map<string, RecoveryFigures & { cents: number }>();
  return {
    from,
    to,
    ...(whole ? inKes(whole) : noFigures()),
    groups: [...split]
      .map(([key, figures]) => ({ key, label: labelOf(key), ...inKes(figures) }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  };
}

const figureLines = (group: string, r: RecoveryFigures) => [
  { group, figure: 'Failed: try again once (1037, 1001)', value: r.failed_by_class.retry },
  { group, figure: 'Failed: remind (1, 1032)', value: r.failed_by_class.remind },
  { group, figure: 'Failed: never retried', value: r.failed_by_class.never },
  { group, figure: 'Retries sent', value: r.retries },
  { group, figure: 'Reminders sent', value: r.reminders },
  { group, figure: 'Payments recovered', value: r.recovered_payments },
  { group, figure: 'Amount recovered (KES)', value: r.recovered_amount },
];

/** The figures one per line, the whole first and then each group of the split. */
export async function recoveryCsv(
  db: Queryable,
  query: RecoveryQuery,
  labelOf?: (key: string) => string,
): Promise<CsvTable<{ group: string; figure: string; value: number }>> {
  const r = await recoveryReport(db, query, labelOf);
  return {
    filename: `report-recovery-${r.from}-to-${r.to}`,
    columns: [
      { header: 'Group', value: (x) => x.group },
      { header: 'Figure', value: (x) => x.figure },
      { header: 'Value', value: (x) => x.value },
    ],
    rows: [[...figureLines('All', r), ...r.groups.flatMap((g) => figureLines(g.label, g))]],
  };
}
