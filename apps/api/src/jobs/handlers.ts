import type { AppDeps } from '../deps.ts';
import { dispatchQueuedSms } from '../modules/sms/outbox.ts';
import { QUEUES, type JobHandler } from './jobs.ts';

/** Every queue's handler, wired to the app's dependencies. */
export function jobHandlers(deps: AppDeps): JobHandler[] {
  return [
    {
      queue: QUEUES.smsDispatch,
      cron: '* * * * *',
      run: async () => {
        await dispatchQueuedSms(deps.database, deps.sms);
      },
    },
  ];
}
