import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsGatewayRefusalTexts } from '@betdesk/contract';
import { createTestApp, type TestApp } from '../helpers.ts';
import { people } from '../clients/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.as(p.admin, { method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return res.json();
};

describe('GET /api/dashboard/admin-alerts', () => {
  it("answers each alert with the same facts as the screens' own endpoints", async () => {
    const breach = await t.as(p.admin, {
      method: 'POST',
      url: '/api/privacy/breaches/store',
      payload: { discovered_at: new Date(Date.now() - 3_600_000).toISOString(), description: 'A phone with the export was lost', people_affected: 3, data_concerned: 'Phones' },
    });
    expect(breach.statusCode).toBe(200);

    const alerts = await get('/api/dashboard/admin-alerts');
    const [status, backup, tax, transmissions, backlog, providers, privacy, grants, calendar] = await Promise.all([
      get('/api/mpesa/reconciliation/status'),
      get('/api/backups/health'),
      get('/api/tax/status'),
      get('/api/tax/transmissions?page=1&perPage=50'),
      get('/api/sms/backlog'),
      get('/api/sms/providers'),
      get('/api/privacy/alerts'),
      get('/api/users/admin-grants'),
      get('/api/compliance/calendar'),
    ]);
    expect(Object.keys(alerts).sort()).toEqual(
      ['admin_grants', 'backup', 'compliance', 'money_check', 'privacy', 'sms', 'sms_providers', 'tax', 'tax_transmissions'].sort(),
    );
    expect(alerts.money_check).toEqual(status.money_check && { ok: status.money_check.ok, failures: status.money_check.failures.map((f: { check: string }) => ({ check: f.check })) });
    expect(alerts.backup).toEqual({ alert: backup.alert });
    expect(alerts.tax).toEqual({ invoicing_on: tax.invoicing_on, alert: tax.alert });
    expect(alerts.tax_transmissions).toEqual({ rejected: transmissions.counts.rejected, older_than_alert: transmissions.older_than_alert, alert_hours: transmissions.alert_hours });
    expect(alerts.sms).toEqual({
      retrying: backlog.retrying,
      oldest_retrying_on: backlog.oldest_retrying_on,
      causes: backlog.causes.map((c: { cause: string; retrying: number }) => ({ cause: c.cause, retrying: c.retrying })),
      refusal: backlog.refusal && { text: smsGatewayRefusalTexts[backlog.refusal.cause as keyof typeof smsGatewayRefusalTexts], reason: backlog.refusal.reason, at: backlog.refusal.at },
    });
    expect(alerts.sms_providers).toEqual(
      providers.providers.map((s: { provider: string; state: string; reason: string | null; since: string | null }) => ({ provider: s.provider, state: s.state, reason: s.reason, since: s.since })),
    );
    expect(alerts.privacy).toEqual({
      overdue_requests: privacy.overdue_requests,
      breaches: privacy.breaches.map((b: { id: number; description: string; notify_by: string }) => ({ id: b.id, description: b.description, notify_by: b.notify_by })),
    });
    expect(alerts.privacy.breaches).toEqual([expect.objectContaining({ id: breach.json().breach.id, description: 'A phone with the export was lost' })]);
    expect(alerts.admin_grants.pending).toHaveLength(grants.pending.length);
    expect(alerts.admin_grants.given).toHaveLength(grants.recent.filter((g: { status: string }) => g.status === 'approved').length);
    expect(alerts.compliance).toEqual({ items: calendar.items });
    // A fresh install has recorded no compliance item: each is an alert line.
    expect(alerts.compliance.items.filter((i: { status: string }) => i.status === 'missing').length).toBeGreaterThan(0);
  });

  it('is refused to a staff member (403) and to nobody signed in (401)', async () => {
    expect((await t.as(p.staff, { method: 'GET', url: '/api/dashboard/admin-alerts' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/admin-alerts' })).statusCode).toBe(401);
  });
});
