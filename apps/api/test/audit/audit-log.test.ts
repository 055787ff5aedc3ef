import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { auditLog } from '../../src/db/schema/index.ts';
import { ADMIN, createTestApp, explain, type TestApp } from '../helpers.ts';
import { c2b, confirm, paymentByReceipt, seedPeople } from '../mpesa/fixtures.ts';

let t: TestApp;
let admin: string;
let staff: string;
let adminId: number;
let paymentId: number;
let subscriberId: number;

const list = (query: string, token = admin) => t.as(token, { method: 'GET', url: `/api/audit?${query}` });
const ids = (body: { entries: { id: number }[] }) => body.entries.map((e) => e.id);

beforeAll(async () => {
  t = await createTestApp();
  const ref = await seedPeople(t);
  adminId = await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN, name: 'Boss Admin' });
  await t.addUser({ email: 'agent@betdesk.test' });
  admin = await t.tokenFor('boss@betdesk.test');
  staff = await t.tokenFor('agent@betdesk.test');
  subscriberId = await ref.person('subscriber', 'Mary Wanjiru', '254722000111');
  const body = c2b({ BillRefNumber: 'WHO', MSISDN: '2547 ***** 555', TransAmount: '100.00' });
  await confirm(t, body);
  paymentId = (await paymentByReceipt(t, body.TransID as string))!.id;
  const claimed = await t.as(admin, {
    method: 'POST',
    url: '/api/mpesa-transactions/claim',
    payload: { transaction_id: paymentId, subscriber_id: subscriberId },
  });
  expect(claimed.statusCode).toBe(200);
});
afterAll(() => t.close());

describe('GET /api/audit', () => {
  it('shows a claim: who, what, which payment, before and after', async () => {
    const res = await list(`entity=mpesa_payment&entity_id=${paymentId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total_records).toBe(1);
    expect(body.total_capped).toBe(false);
    expect(body.entries[0]).toMatchObject({
      user_id: adminId,
      user_name: 'Boss Admin',
      action: 'payment.claim',
      entity: 'mpesa_payment',
      entity_id: String(paymentId),
      before: { status: 'unclaimed' },
      after: { status: 'claimed', subscriberId },
    });
    expect(body.users.map((u: { name: string }) => u.name)).toContain('Boss Admin');
  });

  it('offers every action and kind of record the trail holds, once each, for the filter selects', async () => {
    const body = (await list('entity=client')).json();
    expect(body.actions).toEqual(expect.arrayContaining(['payment.claim', 'user.create']));
    expect(new Set(body.actions).size).toBe(body.actions.length);
    expect(body.entities).toEqual(expect.arrayContaining(['mpesa_payment', 'user']));
    expect(new Set(body.entities).size).toBe(body.entities.length);
  });

  it('filters by user and by action, newest first', async () => {
    const everyone = (await list('perPage=50')).json();
    expect(everyone.total_records).toBeGreaterThanOrEqual(2);
    const at = everyone.entries.map((e: { at: string }) => e.at);
    expect([...at].sort().reverse()).toEqual(at);
    const byAdmin = (await list(`user_id=${adminId}`)).json();
    expect(byAdmin.entries.length).toBeGreaterThan(0);
    expect(byAdmin.entries.every((e: { user_id: number }) => e.user_id === adminId)).toBe(true);
    const created = (await list('action=user.create')).json();
    expect(created.entries.length).toBe(2);
    expect(created.entries.every((e: { action: string }) => e.action === 'user.create')).toBe(true);
    expect((await list('action=no.such-action')).json()).toMatchObject({ total_records: 0, entries: [] });
  });

  it('keeps whole Nairobi days: a row at 23:59 Nairobi is in that day, one at 00:00 the next is not', async () => {
    await t.deps.db.insert(auditLog).values([
      { actorUserId: adminId, action: 'test.edge', entity: 'setting', entityId: 'late', at: new Date('2026-03-10T20:59:59Z') },
      { actorUserId: adminId, action: 'test.edge', entity: 'setting', entityId: 'next', at: new Date('2026-03-10T21:00:00Z') },
    ]);
    const day = (await list('action=test.edge&from=2026-03-10&to=2026-03-10')).json();
    expect(day.entries.map((e: { entity_id: string }) => e.entity_id)).toEqual(['late']);
    const next = (await list('action=test.edge&from=2026-03-11')).json();
    expect(next.entries.map((e: { entity_id: string }) => e.entity_id)).toEqual(['next']);
  });

  it('refuses a bad date, an end before the start and a record without its entity (422 naming the field)', async () => {
    const bad = await list('from=2026-02-30');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('from');
    const backwards = await list('from=2026-03-10&to=2026-03-09');
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors).toHaveProperty('to');
    const orphan = await list('entity_id=5');
    expect(orphan.statusCode).toBe(422);
    expect(orphan.json().errors).toHaveProperty('entity');
  });

  it('is for admins only: staff get a 403, no session a 401', async () => {
    expect((await list('', staff)).statusCode).toBe(403);
    expect((await t.as(null, { method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
  });

  it('pages', async () => {
    const first = (await list('perPage=50&page=1')).json();
    const past = (await list('perPage=50&page=2')).json();
    expect(past.entries).toEqual([]);
    expect(past.total_records).toBe(first.total_records);
    expect(ids(first)).toHaveLength(first.total_records);
  });

  it('reads a page and each filter through an index on (at, id), not a scan of the table', async () => {
    await t.deps.db.transaction(async (tx) => {
      // A test table is tiny: forbid the whole-table scan so the plan shows which index serves.
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = (where: ReturnType<typeof sql>) =>
        explain(sql`select id from ${auditLog} a where ${where} order by a.at desc nulls last, a.id desc nulls last limit 50`, tx);
      expect((await plan(sql`true`)).indexes).toContain('audit_at_id_idx');
      expect((await plan(sql`a.actor_user_id = 1`)).indexes).toContain('audit_actor_at_idx');
      expect((await plan(sql`a.action = 'payment.claim'`)).indexes).toContain('audit_action_at_idx');
      expect((await plan(sql`a.entity = 'client' and a.entity_id = '1'`)).indexes).toContain('audit_entity_at_idx');
    });
  });
});
