import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { privacyTexts } from '@betdesk/contract';
import { clientPlatformPasswords, mpesaPayments, smsMessages, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import { rows } from '../../src/db/rows.ts';
import { compactSummaries } from '../../src/db/summaries.ts';
import { runRetention } from '../../src/modules/privacy/service.ts';
import { queueSms } from '../../src/modules/sms/outbox.ts';
import { type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, SECRET, peopleWorld, type Reference } from '../mpesa/fixtures.ts';

const DAY = 86_400_000;
let t: TestApp;
let ref: Reference;
let admin: string;
let staff: string;

function text(from: string, body: string, id: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/hooks/sms/inbound/${SECRET}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ from, to: '22384', text: body, id }).toString(),
  });
}

async function activeSmsSubscription(subscriberId: number) {
  await t.deps.db.insert(subscriptions).values({
    subscriberId,
    betCategoryId: ref.d2.id,
    medium: 'sms',
    durationDays: 7,
    amountCents: 10_000,
    startsAt: new Date(Date.now() - DAY),
    expiresAt: new Date(Date.now() + 6 * DAY),
    source: 'manual',
  });
}

beforeAll(async () => {
  ({ t, ref, admin, staff } = await peopleWorld());
});
afterAll(async () => {
  await t.close();
});

describe('marketing consent', () => {
  it('records consent when a person texts YES and withdraws it when they text STOP', async () => {
    expect((await text('+254730000001', 'yes', 'ATin-yes-1')).statusCode).toBe(200);
    const given = await t.as(admin, { method: 'GET', url: '/api/privacy/consent?phone=0730000001' });
    expect(given.json()).toMatchObject({ phone: '254730000001', given: true, channel: 'sms' });
    expect(given.json().wording).toContain('offers');

    expect((await text('+254730000001', 'STOP', 'ATin-stop-1')).statusCode).toBe(200);
    const withdrawn = (await t.as(staff, { method: 'GET', url: '/api/privacy/consent?phone=0730000001' })).json();
    expect(withdrawn).toMatchObject({ given: false, channel: 'sms' });
    expect(withdrawn.history.map((h: { given: boolean }) => h.given)).toEqual([false, true]);
  });

  it('lets staff record a consent the person gave them, with a note', async () => {
    const res = await t.as(staff, {
      method: 'POST',
      url: '/api/privacy/consent',
      payload: { phone: '0730000002', given: true, note: 'Said yes on a call on 25 Nov' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ info: privacyTexts.consentRecorded, consent: { given: true, channel: 'staff' } });
    expect(res.json().consent.history[0]).toMatchObject({ note: 'Said yes on a call on 25 Nov', by: 'agent' });
    const noNote = await t.as(staff, { method: 'POST', url: '/api/privacy/consent', payload: { phone: '0730000002', given: true } });
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json().errors).toHaveProperty('note');
  });

  it('sends a broadcast only to people who consented, and the preview says how many are left out', async () => {
    const consented = await ref.person('subscriber', 'Consented', '254730000011');
    const silent = await ref.person('subscriber', 'Never asked', '254730000012');
    const paid = await ref.person('subscriber', 'Paid only', '254730000013');
    for (const id of [consented, silent, paid]) await activeSmsSubscription(id);
    // A payment is never consent: this one pays, and still gets no offer.
    expect((await confirm(t, c2b({ MSISDN: '254730000013', BillRefNumber: 'D2', TransAmount: '100.00' }))).statusCode).toBe(200);
    await t.as(admin, { method: 'POST', url: '/api/privacy/consent', payload: { phone: '0730000011', given: true, note: 'Portal sign-up form' } });

    const audience = { segment: 'category-active', bet_category_id: ref.d2.id, message: 'Weekend special: 3 odds for KES 50' };
    const preview = (await t.as(admin, { method: 'POST', url: '/api/broadcasts/preview', payload: audience })).json();
    expect(preview).toMatchObject({ recipients: 1, no_consent: 2, opted_out: 0 });
    const sent = await t.as(admin, { method: 'POST', url: '/api/broadcasts/send', payload: { ...audience, idempotency_key: 'privacy-broadcast-1' } });
    expect(sent.statusCode).toBe(200);
    const rows = await t.deps.db.select({ to: smsMessages.recipient }).from(smsMessages).where(eq(smsMessages.broadcastId, sent.json().broadcast.id));
    expect(rows.map((r) => r.to)).toEqual(['254730000011']);
  });
});

describe("a person's data", () => {
  let jane: number;
  let other: number;

  beforeAll(async () => {
    jane = await ref.person('subscriber', 'Jane Wanjiru', '254740000001');
    other = await ref.person('subscriber', 'Other Person', '254740000002');
    const client = await ref.person('client', 'Jane Wanjiru', '254740000001');
    await t.deps.db.insert(clientPlatformPasswords).values({ clientId: client, platform: 'SportPesa', passwordSealed: 'x.y.z' });
    for (const [phone, receipt] of [['254740000001', 'RPAAAA0001'], ['254740000001', 'RPAAAA0002'], ['254740000002', 'RPBBBB0001']] as const) {
      expect((await confirm(t, c2b({ TransID: receipt, MSISDN: phone, BillRefNumber: 'D2', TransAmount: '100.00', FirstName: 'JANE' }))).statusCode).toBe(200);
    }
    await text('+254740000001', 'Hello, when is the next tip?', 'ATin-jane-1');
    await text('+254740000002', 'Hello from the other', 'ATin-other-1');
  });

  it("exports everything held about a phone and nobody else's, and audits the export", async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/privacy/subject?phone=0740000001&download=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    const subject = res.json();
    expect(subject.subscribers.map((s: { id: number }) => s.id)).toEqual([jane]);
    expect(subject.clients).toHaveLength(1);
    expect(subject.platform_accounts).toEqual([expect.objectContaining({ platform: 'SportPesa', password: 'held, sealed' })]);
    expect(subject.payments.map((p: { receipt: string }) => p.receipt).sort()).toEqual(['RPAAAA0001', 'RPAAAA0002']);
    expect(subject.sms_received.map((m: { text: string }) => m.text)).toEqual(['Hello, when is the next tip?']);
    expect(subject.sms_sent.every((m: { recipient: string }) => m.recipient === '254740000001')).toBe(true);
    expect(JSON.stringify(subject)).not.toContain('254740000002');
    expect(JSON.stringify(subject)).not.toContain('Other Person');
    expect(subject.subscribers.map((s: { id: number }) => s.id)).not.toContain(other);

    const sensitive = await t.deps.db.execute(sql`select count(*)::int as n from audit_log where action = 'privacy.export'`);
    expect((sensitive as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    expect((await t.as(staff, { method: 'GET', url: '/api/privacy/subject?phone=0740000001' })).statusCode).toBe(403);
  });

  it('erases a person without changing a single money figure, removes them from searches and stops their messages', async () => {
    // Every money figure an admin reads: the reports whole, the lists' totals and counts, the table's sum.
    const figures = async () => {
      await compactSummaries(t.deps.db);
      const read = async (url: string) => {
        const res = await t.as(admin, { method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        return res.json();
      };
      const all = await read('/api/mpesa-transactions');
      const tips = await read('/api/tips/mpesa/all');
      const [sum] = await rows<{ cents: string; n: number }>(t.deps.db, sql`select sum(amount_cents)::text as cents, count(*)::int as n from mpesa_payments`);
      return {
        income: await read('/api/reports/income?from=2025-03-01&to=2026-02-28'),
        sources: await read('/api/reports/sources?from=2025-03-01&to=2026-02-28'),
        sales: await read('/api/reports/sales?from=2025-03-01&to=2026-02-28'),
        dashboard: await read('/api/dashboard/income'),
        payments: { unclaimed: all.total_unclaimed, deposit: all.total_deposit, count: all.total_records },
        tips: tips.total_records,
        sum,
      };
    };
    const before = await figures();
    await text('+254740000001', 'YES', 'ATin-jane-yes');
    // The levers' records with her phone: a promo code used from it, and her as an agent (decision 088).
    await t.deps.db.execute(sql`
      with code as (insert into promo_codes (code, kind, percent_off, package_ids, starts_at, ends_at)
                    values ('JANE10', 'percent', 10, array[(select min(id) from price_packages)], now() - interval '1 day', now() + interval '1 day') returning id)
      insert into promo_code_uses (code_id, phone, phone_key, package_id, channel, list_price_cents, discount_cents, price_cents, status)
      select id, '254740000001', '254740000001', (select min(id) from price_packages), 'portal', 10000, 1000, 9000, 'used' from code`);
    await t.deps.db.execute(sql`insert into agents (name, phone) values ('Jane Agent', '254740000001')`);

    const res = await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: '0740000001', reason: 'Asked by phone on 25 Nov' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ info: privacyTexts.erased, erased: { subscribers: 1, clients: 1, payments: 2, received_messages: 2 } });
    expect(await figures()).toEqual(before);

    const [person] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.id, jane));
    expect(person!.name).toBe(`Erased person ${jane}`);
    expect(person!.phone).not.toContain('740000001');
    const [payment] = await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.transId, 'RPAAAA0001'));
    expect(payment).toMatchObject({ amountCents: 10_000, senderName: null, senderPhone: null, msisdn: null });
    expect(JSON.stringify(payment!.raw)).not.toMatch(/JANE|740000001/);
    expect(await t.deps.db.select().from(clientPlatformPasswords)).toEqual([]);
    const levers = await rows<{ t: string }>(t.deps.db, sql`select row_to_json(u)::text as t from promo_code_uses u union all select row_to_json(a)::text from agents a`);
    expect(levers).toHaveLength(2);
    expect(JSON.stringify(levers)).not.toMatch(/740000001|Jane Agent/);

    const search = await t.as(admin, { method: 'GET', url: '/api/tips/subscribers/search?search=Wanjiru' });
    expect(JSON.stringify(search.json())).not.toContain('Wanjiru');
    const stillThere = await t.as(admin, { method: 'GET', url: '/api/privacy/subject?phone=0740000001' });
    expect(stillThere.json()).toMatchObject({ erased: true, subscribers: [], clients: [], payments: [] });

    // Nothing of any class goes to the phone any more.
    const queued = await queueSms(t.deps.db, { intent: 'test.after-erase', dedupeKey: 'after-erase', to: '254740000001', body: 'Receipt', createdBy: null });
    expect(queued).toBeNull();

    // A later payment from them is kept, counted and flagged, and re-creates nobody.
    expect((await confirm(t, c2b({ TransID: 'RPAAAA0003', MSISDN: '254740000001', BillRefNumber: 'D2', TransAmount: '100.00' }))).statusCode).toBe(200);
    const later = await paymentByReceipt(t, 'RPAAAA0003');
    expect(later).toMatchObject({ status: 'unclaimed', amountCents: 10_000, subscriberId: null });
    expect(later!.warning).toContain('erased');
    expect(await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, '254740000001'))).toEqual([]);
  });
});

describe('requests, retention and breaches', () => {
  it('tracks a request against its deadline and shows it overdue', async () => {
    const made = await t.as(admin, { method: 'POST', url: '/api/privacy/requests/store', payload: { kind: 'access', phone: '0750000001', note: 'By SMS' } });
    expect(made.statusCode).toBe(200);
    const request = made.json().request;
    expect(new Date(request.due_at).getTime() - new Date(request.received_at).getTime()).toBeCloseTo(7 * DAY, -4);
    await t.deps.db.execute(sql`update privacy_requests set due_at = now() - interval '1 hour' where id = ${request.id}`);
    expect((await t.as(admin, { method: 'GET', url: '/api/privacy/alerts' })).json()).toMatchObject({ overdue_requests: 1 });
    const done = await t.as(admin, { method: 'POST', url: '/api/privacy/requests/done', payload: { id: request.id, outcome: 'Export sent by email' } });
    expect(done.json().request).toMatchObject({ overdue: false, outcome: 'Export sent by email' });
    expect((await t.as(admin, { method: 'POST', url: '/api/privacy/requests/done', payload: { id: request.id, outcome: 'again' } })).statusCode).toBe(409);
    expect((await t.as(admin, { method: 'GET', url: '/api/privacy/alerts' })).json()).toMatchObject({ overdue_requests: 0 });
  });

  it('pseudonymises people quiet for the retention period and empties old SMS texts, with the clock set forward', async () => {
    const quiet = await ref.person('subscriber', 'Quiet Since Long', '254760000001');
    const [old] = await t.deps.db
      .select({ id: smsMessages.id })
      .from(smsMessages)
      .where(sql`${smsMessages.body} <> '' and ${smsMessages.recipient} <> 'erased'`)
      .orderBy(smsMessages.id)
      .limit(1);
    const future = new Date(Date.now() + 6 * 365 * DAY);
    const report = await runRetention(t.deps.db, future);
    expect(report.people_pseudonymised).toBeGreaterThanOrEqual(1);
    expect(report.sms_texts_emptied).toBeGreaterThanOrEqual(1);
    const [person] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.id, quiet));
    expect(person!.name).toBe(`Erased person ${quiet}`);
    const [emptied] = await t.deps.db.select({ body: smsMessages.body, status: smsMessages.status }).from(smsMessages).where(eq(smsMessages.id, old!.id));
    expect(emptied!.body).toBe('');
    const audited = await t.deps.db.execute(sql`select after from audit_log where action = 'privacy.retention'`);
    expect((audited as unknown as { rows: { after: { people_pseudonymised: number } }[] }).rows[0]!.after.people_pseudonymised).toBe(report.people_pseudonymised);
    // Today, nobody is quiet for five years: a run changes nobody.
    expect((await runRetention(t.deps.db)).people_pseudonymised).toBe(0);
  });

  it('runs a 72-hour clock from a breach discovery until it is marked notified', async () => {
    const discovered = new Date(Date.now() - 10 * 3_600_000);
    const made = await t.as(admin, {
      method: 'POST',
      url: '/api/privacy/breaches/store',
      payload: { discovered_at: discovered.toISOString(), description: 'A laptop with an export was stolen', people_affected: 120, data_concerned: 'Names and phones' },
    });
    expect(made.statusCode).toBe(200);
    expect(made.json().breach.notify_by).toBe(new Date(discovered.getTime() + 72 * 3_600_000).toISOString());
    const alerts = (await t.as(admin, { method: 'GET', url: '/api/privacy/alerts' })).json();
    expect(alerts.breaches).toEqual([expect.objectContaining({ id: made.json().breach.id })]);
    const notified = await t.as(admin, {
      method: 'POST',
      url: '/api/privacy/breaches/notified',
      payload: { id: made.json().breach.id, notified_at: new Date().toISOString(), notification_ref: 'ODPC/2026/123' },
    });
    expect(notified.statusCode).toBe(200);
    expect((await t.as(admin, { method: 'GET', url: '/api/privacy/alerts' })).json().breaches).toEqual([]);
    const future = await t.as(admin, {
      method: 'POST',
      url: '/api/privacy/breaches/store',
      payload: { discovered_at: new Date(Date.now() + 86_400_000).toISOString(), description: 'x', people_affected: 1, data_concerned: 'x' },
    });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors).toHaveProperty('discovered_at');
    expect((await t.as(staff, { method: 'GET', url: '/api/privacy/breaches' })).statusCode).toBe(403);
  });
});
