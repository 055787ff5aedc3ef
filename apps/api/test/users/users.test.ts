import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { auditLog, clientAssignments, smsMessages, users } from '../../src/db/schema/index.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let clientA: number;
let clientB: number;

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  clientA = await addClient(t.deps.db, { name: 'Brian Mwangi', staffId: p.staffId });
  clientB = await addClient(t.deps.db, { name: 'Mary Njeri' });
});
afterAll(() => t.close());

const get = (token: string | null, url: string) => t.as(token, { method: 'GET', url });
const post = (token: string | null, url: string, payload: Record<string, unknown>) => t.as(token, { method: 'POST', url, payload });

describe('GET /api/users', () => {
  it('lists users with their assigned-client counts and the categories', async () => {
    const res = await get(p.admin, '/api/users');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['categories', 'users']);
    expect(body.categories).toEqual([{ id: 1, name: 'Admin' }, { id: 2, name: 'Agent' }]);
    const wanjiku = body.users.find((u: { id: number }) => u.id === p.staffId);
    expect(wanjiku).toMatchObject({ user_id: p.staffId, total_clients: 1, category_name: 'Agent' });
  });

  it('is for admins only', async () => {
    expect((await get(p.staff, '/api/users')).statusCode).toBe(403);
    expect((await get(null, '/api/users')).statusCode).toBe(401);
  });
});

describe('POST /api/users/store', () => {
  let newId: number;

  it('registers a user and queues a temporary password by SMS', async () => {
    const res = await post(p.admin, '/api/users/store', {
      name: 'Achieng Atieno', phone_number: '0110234567', email: 'Achieng@Betdesk.test', gender: 'female', category_id: 2,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ info: 'User registered successfully', popup: true });
    expect(res.json().message).toContain('0110234567');
    newId = res.json().user_id;
    const [sms] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'user.temporary-password'));
    expect(sms).toMatchObject({ recipient: '254110234567', status: 'queued' });
    expect(sms!.body).toContain('achieng@betdesk.test');
  });

  it('updates a user', async () => {
    const res = await post(p.admin, '/api/users/store', {
      user_id: newId, name: 'Achieng Atieno Odhiambo', phone_number: '0110234567', email: 'achieng@betdesk.test', gender: 'female', category_id: 2,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toBe('User updated successfully');
    expect(await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'user.update'))).toHaveLength(1);
  });

  it("refuses another user's email and names every bad field", async () => {
    const taken = await post(p.admin, '/api/users/store', { name: 'Copy', phone_number: '0712000000', email: 'wanjiku@x.test', category_id: 2 });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toEqual(['A user with this email already exists']);
    const bad = await post(p.admin, '/api/users/store', { phone_number: 'abc', email: 'nope', category_id: 7, gender: 'other' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['category_id', 'email', 'gender', 'name', 'phone_number']);
  });

  it('keeps the last admin an admin', async () => {
    const res = await post(p.admin, '/api/users/store', { user_id: p.adminId, name: 'Grace Admin', phone_number: '0712000001', email: 'admin@x.test', category_id: 2 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.category_id).toBeDefined();
  });
});

describe('assignment', () => {
  it('lists users and clients for the assignment screen', async () => {
    const body = (await get(p.admin, '/api/users/assign-clients')).json();
    expect(Object.keys(body).sort()).toEqual(['clients', 'total_records', 'users']);
    expect(body.clients.find((c: { id: number }) => c.id === clientA)).toMatchObject({ assigned_user_id: p.staffId });
    const names = body.clients.map((c: { name: string }) => c.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expect(body.total_records).toBe(body.clients.length);
  });

  it('pages and searches the clients of the assignment screen on the server', async () => {
    const all = (await get(p.admin, '/api/users/assign-clients')).json();
    const one = (await get(p.admin, `/api/users/assign-clients?search=${encodeURIComponent(all.clients[0].name)}`)).json();
    expect(one.clients.map((c: { id: number }) => c.id)).toContain(all.clients[0].id);
    expect(one.total_records).toBe(one.clients.length);
    expect((await get(p.admin, '/api/users/assign-clients?perPage=7')).statusCode).toBe(422);
  });

  it("says 'No client is selected' when none is ticked", async () => {
    const res = await post(p.admin, '/api/users/save-clients', { user_id: p.otherStaffId, client_ids: [] });
    expect(res.statusCode).toBe(422);
    expect(res.json().info).toBe('No client is selected');
  });

  it('assigns clients (moving one from another user) and audits it', async () => {
    const res = await post(p.admin, '/api/users/save-clients', { user_id: p.otherStaffId, client_ids: [clientA, clientB] });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toBe('Clients assigned successfully');
    const shown = (await get(p.admin, `/api/users/show-clients?user_id=${p.otherStaffId}`)).json();
    expect(Object.keys(shown).sort()).toEqual(['clients', 'total_records', 'user']);
    expect(shown.total_records).toBe(2);
    expect(shown.user.total_clients).toBe(2);
    expect((await get(p.staff, `/api/clients/show?client_id=${clientA}`)).statusCode).toBe(404);
    expect((await get(p.otherStaff, `/api/clients/show?client_id=${clientA}`)).statusCode).toBe(200);
    expect(await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'client.assign'))).toHaveLength(1);
  });

  it('refuses unknown clients and users', async () => {
    expect((await post(p.admin, '/api/users/save-clients', { user_id: p.otherStaffId, client_ids: [999999] })).json().errors.client_ids).toBeDefined();
    expect((await post(p.admin, '/api/users/save-clients', { user_id: 999999, client_ids: [clientA] })).json().errors.user_id).toBeDefined();
  });

  it('drops a client from a user', async () => {
    const res = await post(p.admin, '/api/users/drop-client', { user_id: p.otherStaffId, client_id: clientB });
    expect(res.statusCode).toBe(200);
    expect((await post(p.admin, '/api/users/drop-client', { user_id: p.otherStaffId, client_id: clientB })).statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    expect((await post(p.staff, '/api/users/save-clients', { user_id: p.staffId, client_ids: [clientB] })).statusCode).toBe(403);
    expect((await post(p.staff, '/api/users/drop-client', { user_id: p.staffId, client_id: clientB })).statusCode).toBe(403);
  });
});

describe('POST /api/users/delete', () => {
  it('refuses to delete yourself', async () => {
    const res = await post(p.admin, '/api/users/delete', { id: p.adminId });
    expect(res.statusCode).toBe(422);
  });

  it('trashes a user: sessions end and clients become unassigned', async () => {
    const res = await post(p.admin, '/api/users/delete', { id: p.otherStaffId });
    expect(res.statusCode).toBe(200);
    expect((await get(p.otherStaff, '/api/clients')).statusCode).toBe(401);
    expect(await t.deps.db.select().from(clientAssignments).where(eq(clientAssignments.userId, p.otherStaffId))).toHaveLength(0);
    expect((await post(p.admin, '/api/users/delete', { id: p.otherStaffId })).statusCode).toBe(404);
  });
});

describe('two admins deleting each other at the same time', () => {
  it('never leaves the office without an admin', async () => {
    const secondId = await t.addUser({ email: 'second-admin@x.test', categoryId: ADMIN, name: 'Second Admin' });
    const liveAdmins = () =>
      t.deps.db.select().from(users).where(and(eq(users.categoryId, ADMIN), isNull(users.deletedAt)));
    expect(await liveAdmins()).toHaveLength(2);

    let firstDeletesSecond: ReturnType<typeof post> | undefined;
    // The second admin's deletion of the first is under way (row written, not committed) when the
    // first admin's deletion of the second arrives.
    await t.deps.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(and(eq(users.categoryId, ADMIN), isNull(users.deletedAt))).orderBy(users.id).for('update');
      await tx.update(users).set({ deletedAt: new Date() }).where(eq(users.id, p.adminId));
      firstDeletesSecond = post(p.admin, '/api/users/delete', { id: secondId });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const res = await firstDeletesSecond!;
    expect(res.statusCode).not.toBe(200);
    expect(await liveAdmins()).toHaveLength(1);
  });
});
