import type { AppDeps } from '../deps.ts';
import { dispatchQueuedSms } from '../modules/sms/outbox.ts';
import { recheckPendingRequests } from '../modules/mpesa/service.ts';
import { QUEUES, type JobHandler } from './jobs.ts';
import { runSubscriptionExpiry } from './subscription-expiry.ts';

/** Every queue's handler, wired to the app's dependencies. */
export function jobHandlers(deps: AppDeps): JobHandler[] {
  return [
    {
      queue: QUEUES.smsDispatch,
      cron: '* * * * *',
      run: async () => {
        const { batchSize, sendRate } = deps.config.sms;
        const report = await dispatchQueuedSms(deps.database, deps.sms, { batchSize, sendRate });
        if (report.more) await deps.jobs.nudge(QUEUES.smsDispatch);
      },
    },
    {
      // STK pushes whose callback did not come within MPESA_STK_TIMEOUT_SECONDS are asked by STK query.
      queue: QUEUES.stkRecheck,
      cron: '* * * * *',
      run: async () => {
        await recheckPendingRequests(deps);
      },
    },
    {
      queue: QUEUES.subscriptionExpiry,
      cron: '*/10 * * * *',
      run: async () => {
        const { reminded } = await runSubscriptionExpiry(deps.db);
        if (reminded > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
      },
    },
  ];
}
