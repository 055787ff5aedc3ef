import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { adminGrants, auditLog, smsMessages, users } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { ADMIN, AGENT, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, c2b, confirm, paymentByReceipt, receipt } from '../mpesa/fixtures.ts';

/**
 * Decision 056: no single person moves money out. Admin rights asked in the web wait for a second
 * admin's approval with their code; an admin never approves a refund (or admin rights) of an admin
 * their own rights come from, who got theirs from them, or who was made by the same admin; and a
 * new admin waits out a cooling-off period before approving anything.
 */
let t: TestApp;
let fake: FakeDaraja;

const certificate = readFileSync(new URL('../refunds/initiator-test.crt', import.meta.url), 'utf8');

// Each code takes a new 30-second TOTP step: the clock (Date only; the database keeps its own) moves
// a whole step before each code.
let clock = Date.now();
async function nextCode(secret: string): Promise<string> {
  clock += 30_000;
  vi.setSystemTime(clock);
  return generate({ secret, epoch: Math.floor(clock / 1000) });
}

interface Admin {
  id: number;
  email: string;
  token: string;
  secret: string;
}

/** Turns on the user's second factor; their token and TOTP secret. */
async function enrol(id: number, email: string, token: string): Promise<Admin> {
  const setup = await t.as(token, { method: 'POST', url: '/api/auth/2fa/setup' });
  const { secret } = setup.json();
  const enable = await t.as(token, { method: 'POST', url: '/api/auth/2fa/enable', payload: { code: await nextCode(secret) } });
  expect(enable.statusCode).toBe(200);
  return { id, email, token, secret: secret as string };
}

/** An admin the operator made (`npm run create-user`): an admin at once, outside the web's rule. */
async function operatorAdmin(email: string): Promise<Admin> {
  const id = await t.addUser({ email, categoryId: ADMIN });
  return enrol(id, email, await t.tokenFor(email));
}

let phoneSeq = 0;
const post = (token: string, url: string, payload?: Record<string, unknown>) => t.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) });
const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

/** `asker` registers a new user as admin on the Users screen: the grant id and the user's id. */
async function askForNewAdmin(asker: Admin, email: string): Promise<{ grantId: number; userId: number }> {
  phoneSeq += 1;
  const res = await post(asker.token, '/api/users/store', {
    name: `Account ${email.split('@')[0]}`,
    phone_number: `07990${String(phoneSeq).padStart(5, '0')}`,
    email,
    category_id: ADMIN,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().admin_grant_id).toEqual(expect.any(Number));
  return { grantId: res.json().admin_grant_id, userId: res.json().user_id };
}

const approveGrant = async (approver: Admin, grantId: number, code?: string) =>
  post(approver.token, `/api/users/admin-grants/${grantId}/approve`, { code: code ?? (await nextCode(approver.secret)) });

/** The new user's temporary password, as the SMS the asker's phone received says it. */
async function temporaryPasswordOf(email: string): Promise<string> {
  const found = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'user.temporary-password'));
  const sms = found.find((m) => m.body.includes(email));
  return /temporary password (\S+),/.exec(sms!.body)![1]!;
}

/**
 * The attack: `maker` registers an account with a phone they hold, `voucher` (not tied to `maker`)
 * approves it, and the maker signs in as it and turns on its second factor.
 */
async function madeBy(maker: Admin, voucher: Admin, email: string): Promise<Admin> {
  const { grantId, userId } = await askForNewAdmin(maker, email);
  const approved = await approveGrant(voucher, grantId);
  expect(approved.statusCode, approved.body).toBe(200);
  return enrol(userId, email, await t.tokenFor(email, await temporaryPasswordOf(email)));
}

/** Past its cooling-off period: the grant took effect `days` ago. */
async function coolOff(admin: Admin, days = 8): Promise<void> {
  await t.deps.db
    .update(adminGrants)
    .set({ effectiveAt: sql`now() - make_interval(days => ${days}::int)` })
    .where(and(eq(adminGrants.userId, admin.id), eq(adminGrants.status, 'approved')));
}

/** `asker` asks to refund a whole unclaimed payment by Reversal; the refund's id. */
async function refundAskedBy(asker: Admin, amount = '250.00'): Promise<number> {
  const trans = receipt();
  await confirm(t, c2b({ TransID: trans, TransAmount: amount, BillRefNumber: 'NOBODY9', MSISDN: `2547331${String(++phoneSeq).padStart(5, '0')}` }));
  const payment = (await paymentByReceipt(t, trans))!;
  const asked = await post(asker.token, '/api/refunds', { payment_id: payment.id, amount: Number(amount), reason: 'wrong_account', method: 'reversal' });
  expect(asked.statusCode, asked.body).toBe(200);
  return asked.json().refund.id;
}

const approveRefund = async (approver: Admin, id: number) =>
  post(approver.token, `/api/refunds/${id}/approve`, { code: await nextCode(approver.secret) });

async function categoryOf(userId: number): Promise<number> {
  const [row] = await t.deps.db.select({ categoryId: users.categoryId }).from(users).where(eq(users.id, userId));
  return row!.categoryId;
}

let owner: Admin; // the bootstrap admin of the business
let partner: Admin; // a second admin the operator made
let third: Admin; // a third one, for chains of accounts
let staffToken: string;
let staffId: number;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(clock);
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '600984' }));
  owner = await operatorAdmin('owner@betdesk.test');
  partner = await operatorAdmin('partner@betdesk.test');
  third = await operatorAdmin('third@betdesk.test');
  staffId = await t.addUser({ email: 'agent@betdesk.test' });
  staffToken = await t.tokenFor('agent@betdesk.test');
  const saved = await post(owner.token, '/api/refunds/initiator', { name: 'betdesk-api', password: 'Safaricom-Initiator-1!', certificate });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
  await fake.close();
});

describe('admin rights need a second admin', () => {
  it('registers a would-be admin as staff, with a grant waiting that admins see', async () => {
    const { grantId, userId } = await askForNewAdmin(owner, 'amina@betdesk.test');
    expect(await categoryOf(userId)).toBe(AGENT);
    const seen = await get(partner.token, '/api/users/admin-grants');
    expect(seen.statusCode).toBe(200);
    expect(seen.json().pending).toEqual([
      expect.objectContaining({ id: grantId, user_id: userId, user_email: 'amina@betdesk.test', kind: 'new_user', status: 'pending', requested_by_id: owner.id }),
    ]);
    expect((await get(staffToken, '/api/users/admin-grants')).statusCode).toBe(403);
    // Signed in, the user is staff until the grant is approved.
    const token = await t.tokenFor('amina@betdesk.test', await temporaryPasswordOf('amina@betdesk.test'));
    expect((await get(token, '/api/users')).statusCode).toBe(403);
  });

  it('is refused to the admin who asked, to staff, to an approver without a second factor, and to a wrong code', async () => {
    const { grantId, userId } = await askForNewAdmin(owner, 'baraka@betdesk.test');
    const own = await approveGrant(owner, grantId);
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('own_grant');
    expect((await post(staffToken, `/api/users/admin-grants/${grantId}/approve`, { code: '123456' })).statusCode).toBe(403);

    await t.addUser({ email: 'nofactor@betdesk.test', categoryId: ADMIN });
    const noFactor = await post(await t.tokenFor('nofactor@betdesk.test'), `/api/users/admin-grants/${grantId}/approve`, { code: '123456' });
    expect(noFactor.statusCode).toBe(422);
    expect(noFactor.json().errors.code).toBeDefined();

    const wrong = await approveGrant(partner, grantId, '000000');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual(['This code is not right. Check the time on your phone.']);
    expect((await post(partner.token, `/api/users/admin-grants/${grantId}/approve`, {})).statusCode).toBe(422);
    expect(await categoryOf(userId)).toBe(AGENT);
    expect((await post(partner.token, '/api/users/admin-grants/abc/approve', { code: '1' })).statusCode).toBe(422);
    expect((await post(partner.token, '/api/users/admin-grants/999999/approve', { code: '1' })).statusCode).toBe(404);
  });

  it('makes the user an admin once a second admin approves with their code, audited at each step', async () => {
    const { grantId, userId } = await askForNewAdmin(owner, 'chebet@betdesk.test');
    const approved = await approveGrant(partner, grantId);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().grant).toMatchObject({ status: 'approved', decided_by: expect.any(String) });
    expect(await categoryOf(userId)).toBe(ADMIN);
    expect((await approveGrant(third, grantId)).statusCode).toBe(409);
    const steps = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.entity, 'admin_grant'), eq(auditLog.entityId, String(grantId)))).orderBy(auditLog.id);
    expect(steps.map((s) => [s.action, s.actorUserId])).toEqual([
      ['admin-grant.request', owner.id],
      ['admin-grant.approve', partner.id],
    ]);
    const overview = (await get(owner.token, '/api/users/admin-grants')).json();
    expect(overview.pending.map((g: { id: number }) => g.id)).not.toContain(grantId);
    expect(overview.recent).toEqual(expect.arrayContaining([expect.objectContaining({ id: grantId, status: 'approved' })]));
  });

  it('keeps a user moved to admin as they were until approved, and a decline leaves them so', async () => {
    const moved = await post(owner.token, '/api/users/store', {
      user_id: staffId, name: 'Kevin Agent', phone_number: '0712888001', email: 'agent@betdesk.test', category_id: ADMIN,
    });
    expect(moved.statusCode).toBe(200);
    expect(await categoryOf(staffId)).toBe(AGENT);
    const grantId = moved.json().admin_grant_id as number;
    const again = await post(owner.token, '/api/users/store', {
      user_id: staffId, name: 'Kevin Agent', phone_number: '0712888001', email: 'agent@betdesk.test', category_id: ADMIN,
    });
    expect(again.json().admin_grant_id).toBe(grantId);

    const declined = await post(partner.token, `/api/users/admin-grants/${grantId}/decline`);
    expect(declined.statusCode).toBe(200);
    expect(declined.json().grant).toMatchObject({ status: 'declined', kind: 'promotion' });
    expect(await categoryOf(staffId)).toBe(AGENT);
    expect((await approveGrant(third, grantId)).statusCode).toBe(409);
    expect((await post(partner.token, `/api/users/admin-grants/${grantId}/decline`)).statusCode).toBe(409);
    const [step] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'admin-grant.decline'), eq(auditLog.entityId, String(grantId))));
    expect(step).toMatchObject({ actorUserId: partner.id });
  });
});

describe("an admin's own accounts never approve their money out", () => {
  it('refuses the account an admin made, once it has turned on its code, the approval of their refund', async () => {
    // Admin A asks for a refund and makes admin A2 with a phone A holds; another admin approves A2.
    const a2 = await madeBy(owner, partner, 'owner-2@betdesk.test');
    await coolOff(a2);
    const refund = await refundAskedBy(owner);
    const refused = await approveRefund(a2, refund);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('tied_admin');
    // Nor the other way round: A approving what A2 asked.
    const asked = await refundAskedBy(a2);
    expect((await approveRefund(owner, asked)).json().code).toBe('tied_admin');
    // Nor the admin who approved A2's rights.
    expect((await approveRefund(partner, asked)).json().code).toBe('tied_admin');
    // An admin outside the chain may.
    expect((await approveRefund(third, refund)).statusCode).toBe(200);
  });

  it('holds for a chain of any length, for accounts made side by side, and past the daily limit', async () => {
    // A makes A2; A2 makes A3; A3 makes A4: each vouched for by an admin not tied to its maker (each
    // voucher joins the chain, so every step needs a new one).
    let vouchers = 0;
    const voucher = () => operatorAdmin(`voucher-${++vouchers}@betdesk.test`);
    const a2 = await madeBy(owner, await voucher(), 'chain-2@betdesk.test');
    const a3 = await madeBy(a2, await voucher(), 'chain-3@betdesk.test');
    const a4 = await madeBy(a3, await voucher(), 'chain-4@betdesk.test');
    // And A3 makes A5 beside A4: the two come from one maker.
    const a5 = await madeBy(a3, await voucher(), 'chain-5@betdesk.test');
    for (const account of [a2, a3, a4, a5]) await coolOff(account);

    const refund = await refundAskedBy(owner);
    for (const account of [a2, a3, a4, a5]) {
      const res = await approveRefund(account, refund);
      expect(res.statusCode, account.email).toBe(403);
      expect(res.json().code).toBe('tied_admin');
    }
    const siblings = await refundAskedBy(a4);
    expect((await approveRefund(a5, siblings)).json().code).toBe('tied_admin');

    // A's own accounts cannot give A's next account its rights either.
    const { grantId } = await askForNewAdmin(owner, 'chain-6@betdesk.test');
    for (const account of [a2, a3, a4]) expect((await approveGrant(account, grantId)).json().code).toBe('tied_admin');

    // Past the limit: an independent admin approves first; none of A's accounts may be the further one.
    expect((await post(owner.token, '/api/settings/update', { key: 'refund_daily_limit_kes', value: 100 })).statusCode).toBe(200);
    const big = await refundAskedBy(owner, '300.00');
    const first = await approveRefund(third, big);
    expect(first.json().refund.status).toBe('awaiting_second_approval');
    for (const account of [a2, a3, a4, a5]) expect((await approveRefund(account, big)).json().code).toBe('tied_admin');
    expect((await post(owner.token, '/api/settings/update', { key: 'refund_daily_limit_kes', value: 10_000 })).statusCode).toBe(200);
  });
});

describe('a new admin cools off', () => {
  it('may approve neither refunds nor admin rights before admin_cooling_off_days have passed', async () => {
    const newcomer = await madeBy(third, partner, 'newcomer@betdesk.test');
    const refund = await refundAskedBy(owner);
    const early = await approveRefund(newcomer, refund);
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('admin_cooling_off');
    const { grantId } = await askForNewAdmin(owner, 'later@betdesk.test');
    expect((await approveGrant(newcomer, grantId)).json().code).toBe('admin_cooling_off');

    await coolOff(newcomer, 6);
    expect((await approveRefund(newcomer, refund)).json().code).toBe('admin_cooling_off');
    await coolOff(newcomer, 8);
    expect((await approveRefund(newcomer, refund)).statusCode).toBe(200);
  });

  it('keeps the period at a day at least', async () => {
    const off = await post(owner.token, '/api/settings/update', { key: 'admin_cooling_off_days', value: 0 });
    expect(off.statusCode).toBe(422);
  });
});
