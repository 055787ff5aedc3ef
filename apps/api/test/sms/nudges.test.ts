import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { coalescedSends, startJobs, QUEUES, type Jobs } from '../../src/jobs/jobs.ts';
import { dispatchQueuedSms } from '../../src/modules/sms/outbox.ts';
import type { OutgoingSms, SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

/**
 * Issue 27: a nudge that arrived while a dispatch was running was dropped (one job per 2-second
 * slot) and the sign-in code waited for the once-a-minute sweep. No cron runs here, so a lost
 * nudge shows as work that never happens (the test's timeout), never as a slow timing.
 */

/** A promise with its resolve, to hold a run or a gateway request until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('nudging a queue', () => {
  it('runs the queue once more when nudged during a running pass', async () => {
    // Each round: a pass starts, two nudges arrive while it runs, and one more pass must follow.
    // The old slot singleton lost such a nudge whenever it fell in the running job's 2-second slot;
    // five rounds leave the old code almost no chance to pass.
    const rounds = 5;
    const passes = Array.from({ length: rounds * 2 + 1 }, () => ({ started: gate(), release: gate() }));
    let run = 0;
    const jobs = await startJobs(
      t.deps.database,
      [
        {
          queue: QUEUES.moneyCheck,
          run: async () => {
            const pass = passes[run++]!;
            pass.started.open();
            await pass.release.opened;
          },
        },
      ],
      pino({ level: 'silent' }),
    );
    try {
      for (let round = 0; round < rounds; round++) {
        const first = passes[round * 2]!;
        const next = passes[round * 2 + 1]!;
        await jobs.nudge(QUEUES.moneyCheck);
        await first.started.opened;
        await jobs.nudge(QUEUES.moneyCheck);
        await jobs.nudge(QUEUES.moneyCheck);
        first.release.open();
        await next.started.opened;
        next.release.open();
      }
      expect(run).toBeGreaterThanOrEqual(rounds * 2);
    } finally {
      passes.forEach((p) => p.release.open());
      await jobs.stop();
    }
  });
});

describe('a burst of nudges (issue 33)', () => {
  it('sends at once when the queue is quiet, and a burst shares one send that starts after every nudge in it', async () => {
    vi.useFakeTimers();
    try {
      let asked = 0;
      /** How many nudges had been asked for when each send began. */
      const askedAtSend: number[] = [];
      const send = vi.fn((queue: string) => {
        askedAtSend.push(asked);
        return Promise.resolve(queue);
      });
      const nudge = coalescedSends(send, 20);
      const ask = (queue: string) => ((asked += 1), nudge(queue));

      const first = ask('sms');
      expect(send).toHaveBeenCalledTimes(1);
      const burst = [ask('sms'), ask('sms'), ask('sms')];
      // Another queue is not held back by this one's sends.
      const other = ask('tax');
      expect(send.mock.calls.map(([queue]) => queue)).toEqual(['sms', 'tax']);
      await vi.advanceTimersByTimeAsync(20);
      await Promise.all([first, other, ...burst]);
      // Two sends of 'sms' for four nudges; the second began after the last nudge of the burst.
      expect(send.mock.calls.map(([queue]) => queue)).toEqual(['sms', 'tax', 'sms']);
      expect(askedAtSend).toEqual([1, 5, 5]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells every nudge sharing a send that it failed, and the next nudge sends again', async () => {
    vi.useFakeTimers();
    try {
      const send = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('database gone')).mockResolvedValue(undefined);
      const nudge = coalescedSends(send, 20);
      await nudge('sms');
      const shared = [nudge('sms'), nudge('sms')];
      const outcomes = Promise.allSettled(shared);
      await vi.advanceTimersByTimeAsync(20);
      expect((await outcomes).map((o) => o.status)).toEqual(['rejected', 'rejected']);
      await vi.advanceTimersByTimeAsync(20);
      await nudge('sms');
      expect(send).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('sign-in codes asked for back to back and at once', () => {
  let jobs: Jobs;
  const handed: string[] = [];
  let firstRequest: ReturnType<typeof gate> | null = gate();
  const firstArrived = gate();

  beforeAll(async () => {
    const log = t.deps.sms;
    // The gateway holds its first request until the test has asked for more codes: those arrive
    // while a dispatch is running, the case whose nudges were lost.
    const holding: SmsGateway = {
      name: 'holding',
      balance: () => log.balance(),
      async send(batch: OutgoingSms[]) {
        handed.push(...batch.map((sms) => sms.recipient));
        if (firstRequest) {
          const held = firstRequest;
          firstRequest = null;
          firstArrived.open();
          await held.opened;
        }
        return log.send(batch);
      },
    };
    jobs = await startJobs(
      t.deps.database,
      [{ queue: QUEUES.smsDispatch, pollSeconds: 0.5, run: async () => void (await dispatchQueuedSms(t.deps.database, holding)) }],
      pino({ level: 'silent' }),
    );
    t.deps.jobs = jobs;
  });
  afterAll(async () => {
    firstRequest?.open();
    await jobs.stop();
  });

  const requestCode = (phone: string, n: number) =>
    t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone }, remoteAddress: `10.27.6.${n}` });

  it('hands every code to the gateway without waiting for the sweep', async () => {
    const held = firstRequest!;
    expect((await requestCode('0712000601', 1)).statusCode).toBe(200);
    await firstArrived.opened;
    // Back to back, then three at once, all while the first code's request is at the gateway.
    expect((await requestCode('0712000602', 2)).statusCode).toBe(200);
    const together = await Promise.all([3, 4, 5].map((n) => requestCode(`071200060${n}`, n)));
    expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    held.open();
    const expected = [1, 2, 3, 4, 5].map((n) => `25471200060${n}`);
    while (!expected.every((phone) => handed.includes(phone))) await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...handed].sort()).toEqual(expected);
  });
});
