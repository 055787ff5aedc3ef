import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetention } from '../../src/modules/privacy/service.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { seedPeople } from '../mpesa/fixtures.ts';
import { phones, queueTo } from '../sms/sms-test-kit.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';
const DAY = 86_400_000;

let t: TestApp;

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};
const figure = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  expect(line, name).toBeDefined();
  return Number(line!.slice(name.length + 1));
};

beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN } });
});
afterAll(() => t.close());

describe('the retention job in /metrics', () => {
  it('reads 0 before any run', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE betdesk_retention_last_run_timestamp_seconds gauge');
    expect(figure(text, 'betdesk_retention_last_run_timestamp_seconds')).toBe(0);
    expect(figure(text, 'betdesk_retention_people_pseudonymised_total')).toBe(0);
    expect(figure(text, 'betdesk_retention_sms_texts_emptied_total')).toBe(0);
  });

  it('shows when it last ran and what it did over all its runs', async () => {
    const ref = await seedPeople(t);
    await ref.person('subscriber', 'Quiet Since Long', '254760000001');
    await queueTo(t.deps.database, phones(2), 'An old tip');
    const future = new Date(Date.now() + 6 * 365 * DAY);
    const first = await runRetention(t.deps.db, future);
    expect(first.people_pseudonymised).toBeGreaterThanOrEqual(1);
    expect(first.sms_texts_emptied).toBe(2);
    const second = await runRetention(t.deps.db, new Date(future.getTime() + DAY));

    const text = await scrape();
    expect(figure(text, 'betdesk_retention_last_run_timestamp_seconds')).toBe((future.getTime() + DAY) / 1000);
    expect(figure(text, 'betdesk_retention_people_pseudonymised_total')).toBe(first.people_pseudonymised + second.people_pseudonymised);
    expect(figure(text, 'betdesk_retention_sms_texts_emptied_total')).toBe(2);
  });
});
