import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, clientPlatformPasswords } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from './fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let mine: number;
let lapsed: number;
let theirs: number;

const clientKeys = [
  'account_balance', 'email', 'id', 'joined_on', 'last_login', 'maximum_stake', 'name', 'paid_bonus', 'pending_bonus',
  'phone', 'photo', 'status', 'total_bets', 'total_bonus', 'total_bonuses', 'total_subscriptions',
].sort();

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  mine = await addClient(t.deps.db, { name: 'Brian Mwangi', phone: '254711000001', staffId: p.staffId });
  lapsed = await addClient(t.deps.db, { name: "Mary O'Neill Njeri", phone: '254722000002', active: false, staffId: p.staffId });
  theirs = await addClient(t.deps.db, { name: 'Kevin Otieno', phone: '254733000003', staffId: p.otherStaffId });
});
afterAll(() => t.close());

const get = (token: string | null, url: string) => t.as(token, { method: 'GET', url });

describe('GET /api/clients', () => {
  it('pages all clients for an admin with the spec keys', async () => {
    const res = await get(p.admin, '/api/clients?page=1&perPage=50');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['clients', 'total_active_clients', 'total_records']);
    expect(body.total_records).toBe(3);
    expect(body.total_active_clients).toBe(2);
    expect(Object.keys(body.clients[0]).sort()).toEqual(clientKeys);
  });

  it('shows staff only their own clients', async () => {
    const body = (await get(p.staff, '/api/clients')).json();
    expect(body.clients.map((c: { id: number }) => c.id).sort()).toEqual([mine, lapsed].sort());
    expect(body.total_records).toBe(2);
  });

  it('refuses a page size that is not offered', async () => {
    const res = await get(p.admin, '/api/clients?perPage=7');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.perPage).toBeDefined();
  });

  it('needs a session', async () => {
    expect((await get(null, '/api/clients')).statusCode).toBe(401);
  });
});

describe('GET /api/clients/search', () => {
  it('finds a client by a phone typed as 07..', async () => {
    const body = (await get(p.admin, '/api/clients/search?search=0722000002')).json();
    expect(body.clients.map((c: { name: string }) => c.name)).toEqual(["Mary O'Neill Njeri"]);
  });

  it('finds by part of the name, quotes included, and treats SQL as text', async () => {
    expect((await get(p.admin, `/api/clients/search?search=${encodeURIComponent("O'Neill")}`)).json().total_records).toBe(1);
    const res = await get(p.admin, `/api/clients/search?search=${encodeURIComponent("' or 1=1; drop table clients; --")}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().total_records).toBe(0);
    expect((await get(p.admin, '/api/clients/search?search=%25')).json().total_records).toBe(0);
  });

  it("does not find someone else's client for staff", async () => {
    expect((await get(p.staff, '/api/clients/search?search=Kevin')).json().total_records).toBe(0);
  });
});

describe('GET /api/clients/active', () => {
  it('lists active clients with totals', async () => {
    const body = (await get(p.staff, '/api/clients/active')).json();
    expect(Object.keys(body).sort()).toEqual(['active_clients', 'total_active_clients', 'total_clients', 'total_records']);
    expect(body).toMatchObject({ total_active_clients: 1, total_clients: 2 });
    expect(body.active_clients[0]).toMatchObject({ id: mine, status: 1 });
  });
});

describe('POST /api/clients/store and GET /api/clients/show', () => {
  let created: number;

  it('lets an admin create a client with sealed platform passwords', async () => {
    const res = await t.as(p.admin, {
      method: 'POST',
      url: '/api/clients/store',
      payload: { name: 'Faith Wambui', phone: '0799 111 222', email: 'Faith@Example.com', maximum_stake: 2500, passwords: [{ platform: 'SportPesa', password: 's3cret!' }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toBe('Client created successfully');
    created = res.json().client_id;
    const [stored] = await t.deps.db.select().from(clientPlatformPasswords).where(eq(clientPlatformPasswords.clientId, created));
    expect(stored!.passwordSealed).not.toContain('s3cret');
  });

  it('reveals the passwords on the profile and audits the reveal', async () => {
    const res = await get(p.admin, `/api/clients/show?client_id=${created}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['client', 'passwords']);
    expect(body.client).toMatchObject({ name: 'Faith Wambui', phone: '254799111222', email: 'faith@example.com', maximum_stake: 2500, status: 0 });
    expect(body.passwords).toEqual([{ id: expect.any(Number), platform: 'SportPesa', password: 's3cret!' }]);
    const reveals = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'client.passwords-reveal'));
    expect(reveals.map((r) => r.entityId)).toContain(String(created));
  });

  it('refuses a phone another client has, naming the field', async () => {
    const res = await t.as(p.admin, { method: 'POST', url: '/api/clients/store', payload: { name: 'Copy Cat', phone: '0711000001' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.phone).toEqual(['Another client already has this phone number']);
  });

  it('refuses a bad phone, a missing name and a negative maximum stake', async () => {
    const res = await t.as(p.admin, { method: 'POST', url: '/api/clients/store', payload: { phone: '12345', maximum_stake: -5 } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['maximum_stake', 'name', 'phone']);
  });

  it('is for admins only', async () => {
    const res = await t.as(p.staff, { method: 'POST', url: '/api/clients/store', payload: { name: 'X Y', phone: '0711999888' } });
    expect(res.statusCode).toBe(403);
  });

  it("answers 404 for someone else's client and an unknown id", async () => {
    expect((await get(p.staff, `/api/clients/show?client_id=${theirs}`)).statusCode).toBe(404);
    expect((await get(p.admin, '/api/clients/show?client_id=999999')).statusCode).toBe(404);
    const res = await get(p.admin, '/api/clients/show?client_id=abc');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.client_id).toBeDefined();
  });
});

describe("a client's sub-lists", () => {
  it.each(['subscriptions', 'bets', 'bonuses', 'paid-bonuses'])('/api/clients/%s answers total_records, list, client', async (list) => {
    const res = await get(p.staff, `/api/clients/${list}?client_id=${mine}&page=1&perPage=50`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['client', 'list', 'total_records']);
    expect((await get(p.staff, `/api/clients/${list}?client_id=${theirs}`)).statusCode).toBe(404);
  });

  it('shows subscription status 1 for a running and 0 for a lapsed plan', async () => {
    const running = (await get(p.admin, `/api/clients/subscriptions?client_id=${mine}`)).json();
    expect(running.list[0]).toMatchObject({ status_id: 1, status_name: 'Active', duration: 7, amount: 1000, name: 'Brian Mwangi' });
    const old = (await get(p.admin, `/api/clients/subscriptions?client_id=${lapsed}`)).json();
    expect(old.list[0]).toMatchObject({ status_id: 0, status_name: 'Expired' });
  });
});

describe('CSV export', () => {
  it('streams every client of the filter as CSV', async () => {
    const res = await get(p.admin, '/api/clients/export?search=0711000001');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toContain('Name,Phone');
    expect(lines).toHaveLength(2);
    // The screen's formats: the local phone, Nairobi time.
    expect(lines[1]).toContain('Brian Mwangi,0711000001');
    expect(lines[1]).toMatch(/"\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}"/);
  });

  it("keeps staff to their own clients and refuses someone else's sub-list", async () => {
    const res = await get(p.staff, '/api/clients/export');
    expect(res.body.trim().split('\r\n')).toHaveLength(3);
    expect((await get(p.staff, `/api/clients/bets/export?client_id=${theirs}`)).statusCode).toBe(404);
    expect((await get(null, '/api/clients/export')).statusCode).toBe(401);
  });
});
