import type { AppDeps } from './deps.ts';
import { compactSummaries } from './db/summaries.ts';
import { dispatchQueuedSms, pullDeliveryReports, smsProvidersOf } from './modules/sms/service.ts';
import { recheckPendingRequests } from './modules/mpesa/service.ts';
import { runRetention } from './modules/privacy/service.ts';
import { runMoneyCheck, runPull } from './modules/reconciliation/service.ts';
import { runBackup } from './modules/backups/service.ts';
import { QUEUES, type JobHandler, type QueueName } from './jobs/jobs.ts';
import { runSubscriptionExpiry } from './modules/subscriptions/service.ts';
import { sendQueuedUssdPurchases } from './modules/ussd/service.ts';
import { runRefundSending } from './modules/refunds/service.ts';
import { runPayoutSending } from './modules/agent-payouts/service.ts';
import { transmitDueInvoices } from './modules/tax/service.ts';
import { runRecovery } from './modules/recovery/service.ts';
import { runAutoRenewal } from './modules/auto-renew/service.ts';
import { summariseMarked } from './modules/reports/service.ts';
import { tellEndedExclusions } from './modules/exclusions/service.ts';
import { syncFixtures } from './modules/feed/service.ts';
import { proposeFeedResults, takeClosingOdds } from './modules/tips-record/service.ts';
import { runReferrals } from './modules/referrals/service.ts';

const EVERY_MINUTE = '* * * * *';

/** A queue whose work is one call into its module, with its safety-net cron. */
const runs = (queue: QueueName, cron: string, work: () => Promise<unknown>): JobHandler => ({
  queue,
  cron,
  run: async () => {
    await work();
  },
});

/** Every queue's handler, wired to the app's dependencies. */
export function jobHandlers(deps: AppDeps): JobHandler[] {
  return [
    {
      queue: QUEUES.smsDispatch,
      cron: EVERY_MINUTE,
      // A sign-in code, receipt or USSD payment SMS reaches the gateway within 2 s, also when an
      // API process beside `npm run worker` (JOBS=off) queued it.
      pollSeconds: 0.5,
      run: async (signal) => {
        const { batchSize, sendRate } = deps.config.sms;
        const report = await dispatchQueuedSms(deps.database, smsProvidersOf(deps), { batchSize, sendRate, signal });
        // Work left, also when stopped by SIGTERM: the next job is taken by another worker, or by
        // this one's successor, instead of waiting for the cron.
        if (report.more) await deps.jobs.nudge(QUEUES.smsDispatch);
      },
    },
    // Sent messages without a delivery report after `sms_dlr_pull_minutes` are asked of their
    // provider where it offers it (Advanta's getdlr, decision 062).
    runs(QUEUES.smsDeliveryPull, EVERY_MINUTE, () => pullDeliveryReports(deps.db, smsProvidersOf(deps))),
    // STK pushes whose callback did not come within MPESA_STK_TIMEOUT_SECONDS are asked by STK query.
    runs(QUEUES.stkRecheck, EVERY_MINUTE, () => recheckPendingRequests(deps)),
    {
      queue: QUEUES.subscriptionExpiry,
      cron: '*/10 * * * *',
      run: async (signal) => {
        const { reminded } = await runSubscriptionExpiry(deps.db, { signal });
        if (reminded > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
      },
    },
    // Hourly; the run itself waits for the `mpesa_pull_interval_hours` setting and calls nothing
    // unless M-Pesa is configured.
    runs(QUEUES.mpesaPull, '7 * * * *', () => runPull(deps)),
    // 21:30 UTC is 00:30 in Nairobi: the day just ended is complete.
    runs(QUEUES.moneyCheck, '30 21 * * *', () => runMoneyCheck(deps.db)),
    // 00:15 UTC is 03:15 in Nairobi: the Data Protection Act's retention (decision 025).
    runs(QUEUES.privacyRetention, '15 0 * * *', () => runRetention(deps.db)),
    // Folds the day summaries' deltas in, so a total reads a few hundred rows (decision 015).
    runs(QUEUES.summaryCompaction, EVERY_MINUTE, () => compactSummaries(deps.db)),
    // The retention summaries of the subscribers whose subscriptions changed (decision 043); a
    // retention read does the same first, so this only keeps that read short.
    runs(QUEUES.retentionSummaries, EVERY_MINUTE, () => summariseMarked(deps.db)),
    // Failed payment requests: retried once or reminded once, by result code (decision 037).
    runs(QUEUES.paymentRecovery, EVERY_MINUTE, () => runRecovery(deps)),
    // Automatic renewal (decision 042): standing orders asked for on USSD are sent; a due day
    // with no payment is told once, from the reminder hour of the next day.
    runs(QUEUES.autoRenewal, EVERY_MINUTE, () => runAutoRenewal(deps)),
    // Self-exclusions that ended are told once; nothing restarts by itself (decision 059).
    runs(QUEUES.exclusionEnds, '*/10 * * * *', () => tellEndedExclusions(deps)),
    // The sports-data feed (decision 070), each a no-op without SPORTS_FEED_PROVIDER: the followed
    // leagues' fixtures every three hours; closing odds at kick-off; results every ten minutes.
    runs(QUEUES.feedSync, '11 */3 * * *', () => syncFixtures(deps)),
    runs(QUEUES.feedClosingOdds, EVERY_MINUTE, () => takeClosingOdds(deps)),
    runs(QUEUES.feedResults, '*/10 * * * *', () => proposeFeedResults(deps)),
    // Referrers' free days after the hold, and the agents' commission ledger (decision 088).
    runs(QUEUES.referrals, '17 * * * *', () => runReferrals(deps)),
    // Purchases confirmed on the USSD menu: the STK push leaves once the session has ended.
    runs(QUEUES.ussdPurchases, EVERY_MINUTE, () => sendQueuedUssdPurchases(deps)),
    {
      // Tax invoices to KRA eTIMS: nudged after each sale; the cron retries what KRA did not take.
      queue: QUEUES.taxInvoices,
      cron: EVERY_MINUTE,
      run: async (signal) => {
        const report = await transmitDueInvoices(deps, { signal });
        if (report.more) await deps.jobs.nudge(QUEUES.taxInvoices);
      },
    },
    // Daily at 02:00 Nairobi by default (BACKUP_CRON, BACKUP_TIMEZONE); keeps 7 daily and 4 weekly.
    {
      ...runs(QUEUES.backup, deps.config.backup.cron, () => runBackup(deps.database, deps.config, 'schedule')),
      tz: deps.config.backup.timezone,
    },
    {
      // Approved refunds and agents' payouts leave once; unanswered ones are asked about by Transaction
      // Status (decisions 036, 055, 093).
      queue: QUEUES.refundSending,
      cron: EVERY_MINUTE,
      run: async () => {
        await runRefundSending(deps);
        await runPayoutSending(deps);
        await deps.jobs.nudge(QUEUES.smsDispatch);
      },
    },
  ];
}
