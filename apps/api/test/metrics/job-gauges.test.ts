import { afterAll, beforeAll, expect, it } from 'vitest';
import { QUEUES } from '../../src/jobs/jobs.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

/**
 * The job gauges serve the figures of the scrape that asks, from its first scrape on, with every
 * queue present (0 when it has no job): a queue's first failures are then a rise from 0, which
 * BetdeskJobsFailing sees.
 */
const METRICS_TOKEN = 'metrics-token-0123456789';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN } });
  // pg-boss's job table, the columns the gauges read (a test app starts no job queue).
  await t.deps.database.executeSql(`create schema pgboss`);
  await t.deps.database.executeSql(
    `create table pgboss.job (id serial primary key, name text not null, state text not null,
       created_on timestamptz not null default now(), start_after timestamptz not null default now())`,
  );
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};
const addJobs = (name: string, state: string, n: number) =>
  t.deps.database.executeSql(`insert into pgboss.job (name, state, created_on) select '${name}', '${state}', now() - interval '5 minutes' from generate_series(1, ${n})`);

it("serves each scrape's own job figures, the first scrape too, with every queue present", async () => {
  await addJobs('sms-dispatch', 'created', 2);
  await addJobs('backup', 'failed', 1);
  const first = await scrape();
  expect(first).toMatch(/^betdesk_job_queue_depth\{queue="sms-dispatch"\} 2$/m);
  expect(first).toMatch(/^betdesk_job_failed\{queue="backup"\} 1$/m);
  expect(first).toMatch(/^betdesk_job_oldest_queued_age_seconds\{queue="sms-dispatch"\} (29\d|3\d\d)(\.\d+)?$/m);
  for (const queue of Object.values(QUEUES)) {
    expect(first).toMatch(new RegExp(`^betdesk_job_failed\\{queue="${queue}"\\} \\d+$`, 'm'));
    expect(first).toMatch(new RegExp(`^betdesk_job_queue_depth\\{queue="${queue}"\\} \\d+$`, 'm'));
  }
  expect(first).toMatch(/^betdesk_job_failed\{queue="money-check"\} 0$/m);

  // The next scrape shows what is there now, not what the previous scrape read.
  await addJobs('backup', 'failed', 2);
  await addJobs('money-check', 'failed', 1);
  await t.deps.database.executeSql(`delete from pgboss.job where name = 'sms-dispatch'`);
  const second = await scrape();
  expect(second).toMatch(/^betdesk_job_failed\{queue="backup"\} 3$/m);
  expect(second).toMatch(/^betdesk_job_failed\{queue="money-check"\} 1$/m);
  expect(second).toMatch(/^betdesk_job_queue_depth\{queue="sms-dispatch"\} 0$/m);
  expect(second).toMatch(/^betdesk_job_oldest_queued_age_seconds\{queue="sms-dispatch"\} 0$/m);
});

it("counts pg-boss's job table by state and estimates its archive, for the job-table alert", async () => {
  await addJobs('sms-dispatch', 'completed', 5);
  await t.deps.database.executeSql(`create table pgboss.archive (id int)`);
  await t.deps.database.executeSql(`insert into pgboss.archive select g from generate_series(1, 1000) g`);
  await t.deps.database.executeSql(`analyze pgboss.archive`);
  const body = await scrape();
  expect(body).toMatch(/^betdesk_job_rows\{table="job",state="completed"\} 5$/m);
  expect(body).toMatch(/^betdesk_job_rows\{table="job",state="failed"\} 4$/m);
  expect(body).toMatch(/^betdesk_job_rows\{table="job",state="active"\} 0$/m);
  expect(body).toMatch(/^betdesk_job_rows\{table="archive",state="all"\} 1000$/m);
});
