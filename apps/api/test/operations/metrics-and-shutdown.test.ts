import { spawnSync } from 'node:child_process';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { OutgoingSms, SendOutcome, SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { jobHandlers } from '../../src/job-handlers.ts';
import { QUEUES, startJobs } from '../../src/jobs/jobs.ts';
import { bookGatewayRequest, dispatchQueuedSms, markGatewayAnswered } from '../../src/modules/sms/outbox.ts';
import { storeC2bConfirmation } from '../../src/modules/mpesa/service.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { phones, queueTo } from '../sms/sms-test-kit.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN } });
  });
  afterAll(() => t.close());

  it('is refused without the token or with another one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
  });

  it('exposes the process, HTTP, SMS outbox, payment, job, backup and reconciliation figures', async () => {
    await queueTo(t.deps.database, phones(3), 'Hello');
    await t.deps.db.transaction((tx) =>
      storeC2bConfirmation(
        tx,
        [],
        {
          TransactionType: 'Pay Bill', TransID: 'TMETRICS01', TransTime: '20261125101500', TransAmount: '50.00',
          BusinessShortCode: '600984', BillRefNumber: 'NOBODY', InvoiceNumber: '', OrgAccountBalance: '',
          ThirdPartyTransID: '', MSISDN: '254712000999', FirstName: 'M', MiddleName: '', LastName: '',
        },
        null,
      ),
    );
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{route="\/api\/health",status="200"\} 1$/m);
    expect(text).toMatch(/^betdesk_sms_messages\{status="queued"\} 3$/m);
    expect(text).toMatch(/^betdesk_payments_received_total\{source="c2b"\} 1$/m);
    expect(text).toMatch(/^betdesk_payments_unclaimed 1$/m);
    expect(text).toMatch(/^betdesk_last_backup_timestamp_seconds 0$/m);
    expect(text).toMatch(/^betdesk_reconciliation_last_run_timestamp_seconds\{check="money_check"\} 0$/m);
    expect(text).toContain('# TYPE betdesk_job_queue_depth gauge');
    expect(text).toContain('# TYPE betdesk_job_oldest_queued_age_seconds gauge');
    expect(text).toContain('# TYPE betdesk_job_failed gauge');
    expect(text).toContain('# TYPE betdesk_payments_received_total counter');
    expect(text).toMatch(/^betdesk_installed_timestamp_seconds \d/m);
  });

  // CI installs Debian's prometheus package (.ci/run), so there this always runs.
  it.skipIf(spawnSync('promtool', ['--version']).error)('passes promtool check metrics (counters and gauges named as they are)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: res.body, encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });
});

describe('GET /api/ready and shutdown', () => {
  it('answers 404 for /metrics when METRICS_TOKEN is unset, 200 ready, then 503 while draining', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const t = await createTestApp({
      routes: (app) =>
        app.get('/api/test/slow', async () => {
          started();
          await held;
          return { done: true };
        }),
    });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });

    // inject() starts the request when it is first awaited or then-ed.
    const slow = t.app.inject({ method: 'GET', url: '/api/test/slow' }).then((res) => res);
    await inFlight;
    t.app.startDraining(); // what SIGTERM does first (main.ts)
    const draining = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toEqual({ status: 'draining' });
    release();
    // The request in flight when the drain began still gets its answer, and close() waits for it.
    expect((await slow).json()).toEqual({ done: true });
    await t.close();
  }, 90_000);
});

describe('SIGTERM during an SMS fan-out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SMS_BATCH_SIZE: '20', SMS_SEND_RATE: '10000' } });
  });
  afterAll(() => t.close());

  it('finishes the batch in flight, leaves the rest queued, and sends every message exactly once', async () => {
    const received: string[] = [];
    let firstBatch!: () => void;
    const sending = new Promise<void>((resolve) => (firstBatch = resolve));
    const slowGateway: SmsGateway = {
      name: 'slow',
      async send(batch: OutgoingSms[]): Promise<SendOutcome[]> {
        firstBatch();
        await new Promise((resolve) => setTimeout(resolve, 150));
        received.push(...batch.map((s) => s.recipient));
        return batch.map((s): SendOutcome => ({ id: s.id, status: 'sent', providerMessageId: `p-${s.id}`, costCents: null }));
      },
      async balance() {
        return null;
      },
    };
    const fanout = phones(200, 254722000000);
    await queueTo(t.deps.database, fanout, 'Fan-out');
    const deps = { ...t.deps, sms: slowGateway };
    const logger = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const jobs = await startJobs(t.deps.database, jobHandlers(deps).filter((h) => h.queue === QUEUES.smsDispatch), logger, {
      work: true,
      stopTimeoutMs: 10_000,
    });
    await jobs.nudge(QUEUES.smsDispatch);
    await sending;
    await jobs.stop(); // what SIGTERM does, after the HTTP server stopped accepting

    const { rows: afterStop } = await t.deps.database.executeSql(
      `select status, count(*)::int as n from sms_messages where body = 'Fan-out' group by status`,
    );
    const byStatus = Object.fromEntries(afterStop.map((r) => [r.status, r.n]));
    expect(byStatus.sending).toBeUndefined();
    expect(byStatus.sent).toBe(received.length);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(200);
    expect((byStatus.queued as number) + received.length).toBe(200);

    // The next process picks up where this one stopped: in the end each phone got it once.
    await dispatchQueuedSms(t.deps.database, slowGateway, { batchSize: 50, sendRate: 10_000 });
    expect(received.length).toBe(200);
    expect(new Set(received).size).toBe(200);
  }, 60_000);

  it('lets a batch leave only when it and every request that may share a second of the gateway with it fit the rate', async () => {
    await t.deps.database.executeSql(`delete from sms_send_bookings`);
    const first = await bookGatewayRequest(t.deps.database, 2, 2, 30_000);
    expect(first.booking).not.toBeNull();
    // The first request is still at the gateway: the next one waits for its answer.
    const whileInFlight = await bookGatewayRequest(t.deps.database, 1, 2, 30_000);
    expect(whileInFlight.booking).toBeNull();
    await markGatewayAnswered(t.deps.database, first.booking!);
    // Answered: it holds its messages for one second more.
    const afterAnswer = await bookGatewayRequest(t.deps.database, 1, 2, 30_000);
    expect(afterAnswer.booking).toBeNull();
    expect(afterAnswer.waitMs).toBeGreaterThan(0);
    expect(afterAnswer.waitMs).toBeLessThanOrEqual(1000);
  });

  it('never hands the gateway more than the rate within any second, with dispatchers running at once', async () => {
    await t.deps.database.executeSql(`delete from sms_send_bookings`);
    await t.deps.database.executeSql(`update sms_messages set status = 'failed' where status in ('queued', 'sending')`);
    await queueTo(t.deps.database, phones(12, 254713000000), 'Paced');
    const requests: { at: number; messages: number }[] = [];
    const gateway: SmsGateway = {
      name: 'clock',
      balance: async () => null,
      async send(batch: OutgoingSms[]): Promise<SendOutcome[]> {
        requests.push({ at: Date.now(), messages: batch.length });
        return batch.map((sms) => ({ id: sms.id, status: 'sent', providerMessageId: `p-${sms.id}`, costCents: 80 }));
      },
    };
    await Promise.all([1, 2, 3].map(() => dispatchQueuedSms(t.deps.database, gateway, { batchSize: 4, sendRate: 4 })));
    expect(requests.reduce((n, r) => n + r.messages, 0)).toBe(12);
    // Every one-second window that starts at a request, as the gateway's clock sees it.
    const busiest = Math.max(...requests.map((r) => requests.filter((o) => o.at >= r.at && o.at < r.at + 1000).reduce((n, o) => n + o.messages, 0)));
    expect(busiest).toBeLessThanOrEqual(4);
  });

});
