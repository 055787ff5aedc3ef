import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { subscriptions } from '../../src/db/schema/index.ts';
import { subscriptionsLapsedQuery, subscriptionsMadeQuery } from '../../src/modules/reports/queries.ts';
import { ADMIN, createTestApp, explain, type TestApp } from '../helpers.ts';
import { seedPeople } from '../mpesa/fixtures.ts';

let t: TestApp;
let admin: string;
let staff: string;
let d2: number;
let ov: number;

/** An instant given as Nairobi wall-clock time (UTC+3 all year). */
const nairobi = (local: string) => new Date(`${local}+03:00`);

const report = (query: string, token = admin) => t.as(token, { method: 'GET', url: `/api/reports/subscribers?${query}` });

interface Line { bet_category_id: number | null; new: number; renewed: number; lapsed: number }
interface Period { period: string; from: string; to: string; lines: Line[]; new: number; renewed: number; lapsed: number }
const lineOf = (p: Period | undefined, category: number) => {
  const l = p?.lines.find((x) => x.bet_category_id === category);
  return l ? { new: l.new, renewed: l.renewed, lapsed: l.lapsed } : { new: 0, renewed: 0, lapsed: 0 };
};

beforeAll(async () => {
  t = await createTestApp();
  const ref = await seedPeople(t);
  d2 = ref.d2.id;
  ov = ref.ov.id;
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  await t.addUser({ email: 'agent@betdesk.test' });
  admin = await t.tokenFor('boss@betdesk.test');
  staff = await t.tokenFor('agent@betdesk.test');
  const a = await ref.person('subscriber', 'Alice A', '254722000001');
  const b = await ref.person('subscriber', 'Brian B', '254722000002');
  const c = await ref.person('subscriber', 'Carol C', '254722000003');
  const client = await ref.person('client', 'Client K', '254722000004');
  const sub = (s: { subscriberId?: number; clientId?: number; category?: number; created: string; starts?: string; expires: string; reversed?: boolean }) => ({
    subscriberId: s.subscriberId ?? null,
    clientId: s.clientId ?? null,
    betCategoryId: s.category ?? null,
    medium: s.category ? ('sms' as const) : null,
    durationDays: 7,
    amountCents: 10_000,
    createdAt: nairobi(s.created),
    startsAt: nairobi(s.starts ?? s.created),
    expiresAt: nairobi(s.expires),
    source: 'mpesa' as const,
    reversedAt: s.reversed ? nairobi(s.created) : null,
  });
  await t.deps.db.insert(subscriptions).values([
    // Alice: first D2 on Monday 2 March, renewed on Sunday 8 March (stacked after the first), then gone on the 16th.
    sub({ subscriberId: a, category: d2, created: '2026-03-02T10:00:00', expires: '2026-03-09T10:00:00' }),
    sub({ subscriberId: a, category: d2, created: '2026-03-08T12:00:00', starts: '2026-03-09T10:00:00', expires: '2026-03-16T10:00:00' }),
    // Brian: first D2 at 23:59 on Sunday 1 March (the week before), ends 23:59 on the 8th, back after a gap on the 10th.
    sub({ subscriberId: b, category: d2, created: '2026-03-01T23:59:00', expires: '2026-03-08T23:59:00' }),
    sub({ subscriberId: b, category: d2, created: '2026-03-10T09:00:00', expires: '2026-03-17T09:00:00' }),
    // Carol: OV at 00:01 on Tuesday 3 March, ends on the 10th; a reversed D2 that never counts.
    sub({ subscriberId: c, category: ov, created: '2026-03-03T00:01:00', expires: '2026-03-10T00:01:00' }),
    sub({ subscriberId: c, category: d2, created: '2026-03-04T08:00:00', expires: '2026-03-11T08:00:00', reversed: true }),
    // A Bet4Me client's plan: no subscriber, not in this report.
    sub({ clientId: client, created: '2026-03-04T08:00:00', expires: '2026-03-11T08:00:00' }),
  ]);
});
afterAll(() => t.close());

describe('GET /api/reports/subscribers', () => {
  it('counts new, renewed and lapsed subscribers per category and Monday-started week', async () => {
    const res = await report('from=2026-03-02&to=2026-03-22&group=week');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ from: '2026-03-02', to: '2026-03-22', group: 'week' });
    const rows = body.rows as Period[];
    expect(rows.map((r) => [r.period, r.from, r.to])).toEqual([
      ['2026-03-02', '2026-03-02', '2026-03-08'],
      ['2026-03-09', '2026-03-09', '2026-03-15'],
      ['2026-03-16', '2026-03-16', '2026-03-22'],
    ]);
    // Alice new and renewed; Brian's first cover ended (23:59 Sunday) with nothing following it.
    expect(lineOf(rows[0], d2)).toEqual({ new: 1, renewed: 1, lapsed: 1 });
    expect(lineOf(rows[0], ov)).toEqual({ new: 1, renewed: 0, lapsed: 0 });
    // Brian came back; Alice's first cover ended but her renewal carried on; Carol's OV ended.
    expect(lineOf(rows[1], d2)).toEqual({ new: 0, renewed: 1, lapsed: 0 });
    expect(lineOf(rows[1], ov)).toEqual({ new: 0, renewed: 0, lapsed: 1 });
    expect(lineOf(rows[2], d2)).toEqual({ new: 0, renewed: 0, lapsed: 2 });
    expect(rows.map((r) => [r.new, r.renewed, r.lapsed])).toEqual([[2, 1, 1], [0, 1, 1], [0, 0, 2]]);
    const total = body.total as Line[];
    expect(total.find((l) => l.bet_category_id === d2)).toMatchObject({ category: 'Daily 2 Odds', new: 1, renewed: 2, lapsed: 3 });
    expect(total.find((l) => l.bet_category_id === ov)).toMatchObject({ category: 'Over 2.5', new: 1, renewed: 0, lapsed: 1 });
  });

  it('cuts days at Nairobi midnight: 23:59 on the 1st and 00:01 on the 3rd fall on their own days', async () => {
    const first = (await report('from=2026-03-01&to=2026-03-01&group=day')).json();
    expect(first.rows).toHaveLength(1);
    expect(lineOf(first.rows[0], d2)).toEqual({ new: 1, renewed: 0, lapsed: 0 });
    const second = (await report('from=2026-03-02&to=2026-03-02&group=day')).json();
    expect(lineOf(second.rows[0], d2)).toEqual({ new: 1, renewed: 0, lapsed: 0 });
    expect(lineOf(second.rows[0], ov)).toEqual({ new: 0, renewed: 0, lapsed: 0 });
    const third = (await report('from=2026-03-03&to=2026-03-03&group=day')).json();
    expect(lineOf(third.rows[0], ov)).toEqual({ new: 1, renewed: 0, lapsed: 0 });
  });

  it('groups by calendar month, the first and last periods cut to the range', async () => {
    const body = (await report('from=2026-02-20&to=2026-03-31&group=month')).json();
    expect(body.rows.map((r: Period) => [r.period, r.from, r.to])).toEqual([
      ['2026-02-01', '2026-02-20', '2026-02-28'],
      ['2026-03-01', '2026-03-01', '2026-03-31'],
    ]);
    expect(lineOf(body.rows[0], d2)).toEqual({ new: 0, renewed: 0, lapsed: 0 });
    // Brian's first D2 was bought on 1 March: new; renewed in March: Alice and Brian.
    expect(lineOf(body.rows[1], d2)).toEqual({ new: 2, renewed: 2, lapsed: 2 });
  });

  it('exports the report as CSV, one line per period and category', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/reports/subscribers/export?from=2026-03-02&to=2026-03-22&group=week' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('Period,From,To,Bet category,New,Renewed,Lapsed');
    expect(lines).toContain('2026-03-16,2026-03-16,2026-03-22,Daily 2 Odds,0,0,2');
    expect(lines).toHaveLength(1 + 5);
  });

  it('refuses bad dates, a backwards or too long range and an unknown grouping (422 naming the field)', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['to=23-03-2026', 'to'],
      ['from=2026-03-10&to=2026-03-09', 'to'],
      ['from=2025-01-01&to=2026-03-01&group=day', 'to'],
      ['from=2020-01-01&to=2026-03-01&group=month', 'to'],
      ['group=year', 'group'],
    ] as const) {
      const res = await report(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().errors, query).toHaveProperty(field);
    }
    expect((await report('from=2025-03-02&to=2026-03-01&group=week')).statusCode).toBe(200);
  });

  it('is for admins only', async () => {
    expect((await report('group=week', staff)).statusCode).toBe(403);
    expect((await t.as(staff, { method: 'GET', url: '/api/reports/subscribers/export' })).statusCode).toBe(403);
    expect((await t.as(null, { method: 'GET', url: '/api/reports/subscribers' })).statusCode).toBe(401);
  });

  it('reads the range through the created_at and expires_at indexes, not a scan of subscriptions', async () => {
    await t.deps.db.transaction(async (tx) => {
      // A test table is tiny: forbid the whole-table scan so the plan shows which index serves.
      await tx.execute(sql`set local enable_seqscan = off`);
      const range = { from: '2026-03-02', to: '2026-03-22' };
      // The range on created_at / expires_at: the plain index, or its partial twin for subscribers.
      const made = await explain(subscriptionsMadeQuery(range, 'week'), tx);
      expect(made.indexes.some((i) => ['subscriptions_created_idx', 'subscriptions_subscriber_created_idx'].includes(i)), made.indexes.join()).toBe(true);
      expect(made.seqScans).toEqual([]);
      const lapsed = await explain(subscriptionsLapsedQuery(range, 'week'), tx);
      expect(lapsed.indexes.some((i) => ['subscriptions_expires_idx', 'subscriptions_subscriber_expires_idx'].includes(i)), lapsed.indexes.join()).toBe(true);
      expect(lapsed.seqScans).toEqual([]);
    });
  });
});
