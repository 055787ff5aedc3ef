import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import * as contract from '@betdesk/contract';
import { PORTAL_COOKIE, type Endpoint } from '@betdesk/contract';
import {
  auditLog,
  portalCodes,
  postCategories,
  smsMessages,
  smsOptOuts,
  stkRequests,
  subscriptions,
  tipsPostBets,
  tipsPosts,
} from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import type { TestApp } from '../helpers.ts';
import { appWithFakeDaraja, c2b, confirm, paymentByReceipt, SANDBOX_PASSKEY } from '../mpesa/fixtures.ts';
import { addTipsSubscriber, signedInStaff, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: TipsReference;
let staffToken: string;

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  ref = await tipsReference(t.deps.db);
  staffToken = (await signedInStaff(t)).admin;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

let ipSeq = 0;
/** Each test signs in from its own address, so the per-IP limit of one test does not spill into another. */
const freshIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const requestCode = (phone: string, ip = '10.9.9.9') =>
  t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone }, remoteAddress: ip });
const verify = (phone: string, code: string, ip = '10.9.9.9') =>
  t.app.inject({ method: 'POST', url: '/api/portal/auth/verify', payload: { phone, code }, remoteAddress: ip });

/** The code in the newest sign-in SMS queued to the phone (the outbox is what the gateway sends). */
async function codeSentTo(e164: string): Promise<string> {
  const [sms] = await t.deps.db
    .select({ body: smsMessages.body })
    .from(smsMessages)
    .where(and(eq(smsMessages.recipient, e164), eq(smsMessages.intent, 'portal.sign-in-code')))
    .orderBy(desc(smsMessages.id))
    .limit(1);
  return sms!.body.match(/\b(\d{6})\b/)![1]!;
}

/** Signs a phone in and returns its portal cookie header. */
async function signIn(local: string): Promise<string> {
  const ip = freshIp();
  expect((await requestCode(local, ip)).statusCode).toBe(200);
  const res = await verify(local, await codeSentTo(`254${local.slice(1)}`), ip);
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === PORTAL_COOKIE)!;
  return `${PORTAL_COOKIE}=${cookie.value}`;
}

const asPortal = (cookie: string | null, options: { method: 'GET' | 'POST'; url: string; payload?: object }) =>
  t.app.inject({ ...options, headers: cookie ? { cookie } : {} });

async function addPost(title: string, betCategoryId: number, postCategoryId = ref.football, matchDate = '2026-11-25'): Promise<number> {
  const [post] = await t.deps.db
    .insert(tipsPosts)
    .values({ title, postCategoryId, matchDate, content: `<p>${title}: Arsenal to win</p>` })
    .returning({ id: tipsPosts.id });
  await t.deps.db.insert(tipsPostBets).values({ postId: post!.id, betCategoryId });
  return post!.id;
}

describe('signing in with a phone and an SMS code', () => {
  it('answers the same for a known subscriber and an unknown number, and texts both a 6-digit code', async () => {
    await addTipsSubscriber(t.deps.db, ref, '254711000001', 'web', ref.d2);
    const known = await requestCode('0711000001', freshIp());
    const unknown = await requestCode('0711000002', freshIp());
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json().info).toBe(contract.portalTexts.codeSent);
    expect(await codeSentTo('254711000001')).toMatch(/^\d{6}$/);
    expect(await codeSentTo('254711000002')).toMatch(/^\d{6}$/);
    // Only a hash is stored.
    const stored = await t.deps.db.select({ hash: portalCodes.codeHash }).from(portalCodes).where(eq(portalCodes.phone, '254711000002'));
    expect(stored[0]!.hash).not.toContain(await codeSentTo('254711000002'));
  });

  it('refuses a number that is not a Kenyan mobile with a 422 on phone', async () => {
    const res = await requestCode('0201234567', freshIp());
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.phone).toBeDefined();
  });

  it('sets an HttpOnly SameSite=Lax cookie on the right code and none on a wrong one', async () => {
    const ip = freshIp();
    await requestCode('0711000003', ip);
    const code = await codeSentTo('254711000003');
    const wrong = await verify('0711000003', code === '000000' ? '111111' : '000000', ip);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual([contract.portalTexts.wrongCode]);
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const right = await verify('0711000003', code, ip);
    expect(right.statusCode).toBe(200);
    const cookie = right.cookies.find((c) => c.name === PORTAL_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy(); // Secure only when NODE_ENV=production
    const me = await asPortal(`${PORTAL_COOKIE}=${cookie.value}`, { method: 'GET', url: '/api/portal/me' });
    expect(me.json()).toMatchObject({ phone: '0711000003', name: null, subscriptions: [] });
    // A code works once.
    expect((await verify('0711000003', code, ip)).statusCode).toBe(422);
  });

  it('refuses a code after its 10 minutes', async () => {
    const ip = freshIp();
    await requestCode('0711000004', ip);
    await t.deps.db.update(portalCodes).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(portalCodes.phone, '254711000004'));
    const res = await verify('0711000004', await codeSentTo('254711000004'), ip);
    expect(res.statusCode).toBe(422);
  });

  it('allows 5 wrong tries, then answers 429 even to the right code', async () => {
    const ip = freshIp();
    await requestCode('0711000005', ip);
    const code = await codeSentTo('254711000005');
    const wrongCode = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i += 1) expect((await verify('0711000005', wrongCode, ip)).statusCode).toBe(422);
    const res = await verify('0711000005', code, ip);
    expect(res.statusCode).toBe(429);
    expect(res.json().info).toBe(contract.portalTexts.triesSpent);
  });

  it('limits the codes asked for per phone and per IP', async () => {
    for (let i = 0; i < 5; i += 1) expect((await requestCode('0711000006', freshIp())).statusCode).toBe(200);
    const sixth = await requestCode('0711000006', freshIp());
    expect(sixth.statusCode).toBe(429);

    const ip = freshIp();
    await t.as(staffToken, { method: 'POST', url: '/api/settings/update', payload: { key: 'portal_codes_per_ip', value: 3 } });
    for (let i = 0; i < 3; i += 1) expect((await requestCode(`07110001${String(i).padStart(2, '0')}`, ip)).statusCode).toBe(200);
    expect((await requestCode('0711000199', ip)).statusCode).toBe(429);
    await t.as(staffToken, { method: 'POST', url: '/api/settings/update', payload: { key: 'portal_codes_per_ip', value: 30 } });
  });
});

describe('the portal session and the staff session stay apart', () => {
  it('a portal cookie opens no staff endpoint', async () => {
    const cookie = await signIn('0711000010');
    const staffEndpoints = (Object.values(contract) as unknown[]).filter(
      (e): e is Endpoint =>
        typeof e === 'object' && e !== null && 'access' in e && 'path' in e && (e as Endpoint).access !== 'public' && (e as Endpoint).access !== 'portal',
    );
    expect(staffEndpoints.length).toBeGreaterThan(50);
    for (const e of staffEndpoints) {
      const res = await t.app.inject({ method: e.method, url: e.path, headers: { cookie } });
      expect(res.statusCode, `${e.method} ${e.path}`).toBe(401);
    }
  });

  it('a staff token opens no portal endpoint', async () => {
    for (const [method, url] of [
      ['GET', '/api/portal/me'],
      ['GET', '/api/portal/tips'],
      ['POST', '/api/portal/purchase'],
      ['POST', '/api/portal/price'],
      ['GET', '/api/portal/purchase/1'],
      ['POST', '/api/portal/sms'],
      ['POST', '/api/portal/tax-identity'],
      ['GET', '/api/portal/invoices/1/document'],
    ] as const) {
      const res = await t.as(staffToken, { method, url, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('signing out ends the session', async () => {
    const cookie = await signIn('0711000011');
    expect((await asPortal(cookie, { method: 'POST', url: '/api/portal/auth/logout' })).statusCode).toBe(200);
    expect((await asPortal(cookie, { method: 'GET', url: '/api/portal/me' })).statusCode).toBe(401);
  });
});

describe('reading tips', () => {
  it('a web subscriber of D2 reads D2 posts and gets a 403 without content on O15 posts', async () => {
    await addTipsSubscriber(t.deps.db, ref, '254711000020', 'web', ref.d2);
    const d2Post = await addPost('D2 banker', ref.d2);
    const o15Post = await addPost('O15 secret', ref.o15);
    const cookie = await signIn('0711000020');

    const tips = await asPortal(cookie, { method: 'GET', url: '/api/portal/tips?page=1&perPage=10' });
    expect(tips.statusCode).toBe(200);
    const titles = tips.json().posts.map((p: { title: string }) => p.title);
    expect(titles).toContain('D2 banker');
    expect(titles).not.toContain('O15 secret');
    expect(tips.json().posts[0]).toMatchObject({ bet_categories: expect.any(Array), content: expect.stringContaining('Arsenal') });

    const readable = await asPortal(cookie, { method: 'GET', url: `/api/portal/posts/${d2Post}` });
    expect(readable.statusCode).toBe(200);
    expect(readable.json().post.content).toContain('D2 banker');

    const locked = await asPortal(cookie, { method: 'GET', url: `/api/portal/posts/${o15Post}` });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().post).toMatchObject({ id: o15Post, title: 'O15 secret', match_date: '2026-11-25' });
    expect(locked.body).not.toContain('Arsenal');
    expect(locked.json().post.content).toBeUndefined();
  });

  it('an SMS subscription opens no web post', async () => {
    await addTipsSubscriber(t.deps.db, ref, '254711000021', 'sms', ref.d2);
    await addPost('D2 web only', ref.d2);
    const cookie = await signIn('0711000021');
    const tips = await asPortal(cookie, { method: 'GET', url: '/api/portal/tips' });
    expect(tips.json()).toEqual({ posts: [], total_records: 0 });
  });

  it('an expired subscription stops reading', async () => {
    const subscriberId = await addTipsSubscriber(t.deps.db, ref, '254711000022', 'web', ref.d2);
    const post = await addPost('D2 expiring', ref.d2);
    const cookie = await signIn('0711000022');
    expect((await asPortal(cookie, { method: 'GET', url: `/api/portal/posts/${post}` })).statusCode).toBe(200);
    await t.deps.db.update(subscriptions).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(subscriptions.subscriberId, subscriberId));
    expect((await asPortal(cookie, { method: 'GET', url: `/api/portal/posts/${post}` })).statusCode).toBe(403);
    expect((await asPortal(cookie, { method: 'GET', url: '/api/portal/tips' })).json().total_records).toBe(0);
    const me = await asPortal(cookie, { method: 'GET', url: '/api/portal/me' });
    expect(me.json().subscriptions[0]).toMatchObject({ bet_category: 'Daily 2 Odds', medium: 'web', active: false, days_left: 0 });
  });

  it('free tips (a public post category) are read by anyone, on the API and the home page', async () => {
    const [free] = await t.deps.db.insert(postCategories).values({ name: 'Free tips', public: true }).returning({ id: postCategories.id });
    const today = contract.nairobiDayOf(new Date());
    const post = await addPost('Free banker', ref.o15, free!.id, today);
    const res = await t.app.inject({ method: 'GET', url: `/api/portal/posts/${post}` });
    expect(res.statusCode).toBe(200);
    const home = await t.app.inject({ method: 'GET', url: '/portal' });
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toContain('text/html');
    expect(home.body).toContain('Free banker: Arsenal to win');
    expect(home.body).not.toContain('O15 secret');
    expect(home.body).toMatch(/<title>[^<]+\| Betdesk Tips<\/title>/);
    expect(home.body).toContain('<meta name="description"');
  });
});

describe('buying a package', () => {
  it('lists the packages on sale with their prices', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/portal/packages' });
    expect(res.json().packages).toContainEqual(
      expect.objectContaining({ id: ref.d2WebWeek, bet_category: 'Daily 2 Odds', medium: 'web', duration_days: 7, price: 400 }),
    );
  });

  it('an STK purchase activates once when both the STK callback and the C2B confirmation arrive', async () => {
    const cookie = await signIn('0711000030');
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'SPO3000001' });
    const bought = await asPortal(cookie, { method: 'POST', url: '/api/portal/purchase', payload: { package_id: ref.d2WebWeek, adult: true } });
    expect(bought.statusCode).toBe(200);
    const id = bought.json().payment_request_id as number;
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: '254711000030', Amount: 400, AccountReference: 'D2' });
    await fake.settled();
    await confirm(t, c2b({ TransID: 'SPO3000001', TransAmount: '400.00', BillRefNumber: 'D2', MSISDN: sha256Hex('254711000030'), BusinessShortCode: '174379' }));

    const payment = await paymentByReceipt(t, 'SPO3000001');
    const bought1 = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment!.id));
    expect(bought1).toHaveLength(1);
    expect(bought1[0]).toMatchObject({ packageId: ref.d2WebWeek, medium: 'web' });
    const [request] = await t.deps.db.select().from(stkRequests).where(eq(stkRequests.id, id));
    expect(request).toMatchObject({ origin: 'portal', paymentId: payment!.id }); // the retention split's channel

    const status = await asPortal(cookie, { method: 'GET', url: `/api/portal/purchase/${id}` });
    expect(status.json().purchase).toMatchObject({ status: 'paid', receipt: 'SPO3000001', reason: null });
    expect(new Date(status.json().purchase.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const me = await asPortal(cookie, { method: 'GET', url: '/api/portal/me' });
    expect(me.json().subscriptions).toEqual([expect.objectContaining({ bet_category_code: 'D2', medium: 'web', active: true, days_left: 7 })]);

    const audited = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'portal.purchase'), eq(auditLog.entityId, String(id))));
    expect(audited).toHaveLength(1);
    // Another phone cannot look at it.
    const other = await signIn('0711000031');
    expect((await asPortal(other, { method: 'GET', url: `/api/portal/purchase/${id}` })).statusCode).toBe(404);
  });

  it('shows a cancelled purchase with its reason', async () => {
    const cookie = await signIn('0711000032');
    fake.outcomes.push({ resultCode: 1032, callback: true });
    const bought = await asPortal(cookie, { method: 'POST', url: '/api/portal/purchase', payload: { package_id: ref.d2WebWeek, adult: true } });
    await fake.settled();
    const status = await asPortal(cookie, { method: 'GET', url: `/api/portal/purchase/${bought.json().payment_request_id}` });
    expect(status.json().purchase).toMatchObject({ status: 'cancelled', reason: expect.any(String), expires_at: null });
  });

  it('refuses a package that is not on sale with a 422 on package_id', async () => {
    const cookie = await signIn('0711000033');
    const res = await asPortal(cookie, { method: 'POST', url: '/api/portal/purchase', payload: { package_id: 999_999 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.package_id).toBeDefined();
  });
});

describe('SMS preferences', () => {
  it('stops and restarts SMS as the outbox rules do, audited as the subscriber', async () => {
    const cookie = await signIn('0711000040');
    const stop = await asPortal(cookie, { method: 'POST', url: '/api/portal/sms', payload: { receive: false } });
    expect(stop.json()).toMatchObject({ receives_sms: false, info: contract.portalTexts.smsStopped });
    expect(await t.deps.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, '254711000040'))).toMatchObject([{ scope: 'all', source: 'portal' }]);
    expect((await asPortal(cookie, { method: 'GET', url: '/api/portal/me' })).json().receives_sms).toBe(false);
    const restart = await asPortal(cookie, { method: 'POST', url: '/api/portal/sms', payload: { receive: true } });
    expect(restart.json().receives_sms).toBe(true);
    expect(await t.deps.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, '254711000040'))).toHaveLength(0);
    const audited = await t.deps.db.select({ action: auditLog.action, actor: auditLog.actorUserId }).from(auditLog).where(eq(auditLog.entityId, '254711000040'));
    expect(audited).toEqual([
      { action: 'sms.opt-out', actor: null },
      { action: 'sms.opt-out.clear', actor: null },
    ]);
  });

  it('records marketing consent when the subscriber ticks the offers box, with the wording shown, and withdraws it when unticked', async () => {
    const cookie = await signIn('0711000041');
    expect((await asPortal(cookie, { method: 'GET', url: '/api/portal/me' })).json()).toMatchObject({ offers_consent: false });
    const page = await asPortal(cookie, { method: 'GET', url: '/portal/account' });
    expect(page.body).toContain('name="offers"');
    const tick = await t.app.inject({
      method: 'POST',
      url: '/portal/offers',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'offers=yes',
    });
    expect(tick.statusCode).toBe(303);
    const me = (await asPortal(cookie, { method: 'GET', url: '/api/portal/me' })).json();
    expect(me.offers_consent).toBe(true);
    const [consent] = await t.deps.db.execute(sql`select channel, wording from marketing_consents where phone = '254711000041'`).then((r) => (r as unknown as { rows: { channel: string; wording: string }[] }).rows);
    expect(consent).toEqual({ channel: 'portal', wording: me.offers_wording });
    await t.app.inject({ method: 'POST', url: '/portal/offers', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect((await asPortal(cookie, { method: 'GET', url: '/api/portal/me' })).json().offers_consent).toBe(false);
  });
});

describe('the pages', () => {
  it('signs in with plain forms, without JavaScript', async () => {
    const ip = freshIp();
    const form = (url: string, fields: Record<string, string>, cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url,
        remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
        payload: new URLSearchParams(fields).toString(),
      });
    const asked = await form('/portal/sign-in', { phone: '0711000050', next: '/portal/account' });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('6-digit code sent to 0711000050');
    const signedIn = await form('/portal/verify', { phone: '0711000050', code: await codeSentTo('254711000050'), next: '/portal/account' });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/portal/account');
    const cookie = signedIn.cookies.find((c) => c.name === PORTAL_COOKIE)!;
    const account = await t.app.inject({ method: 'GET', url: '/portal/account', headers: { cookie: `${PORTAL_COOKIE}=${cookie.value}` } });
    expect(account.body).toContain('You have no subscription yet');
  });

  it('answers unknown portal addresses with the portal 404, and sends signed-out visitors to sign in', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/portal/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('There is no such page');
    const tips = await t.app.inject({ method: 'GET', url: '/portal/tips' });
    expect(tips.statusCode).toBe(303);
    expect(tips.headers.location).toBe('/portal/sign-in?next=%2Fportal%2Ftips');
    for (const url of ['/portal/help', '/portal/packages', `/portal/packages/${ref.d2WebWeek}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
    }
  });
});

describe('the staff side', () => {
  it("shows a subscriber's last portal sign-in in the back office", async () => {
    const subscriberId = await addTipsSubscriber(t.deps.db, ref, '254711000060', 'web', ref.d2);
    const before = await t.as(staffToken, { method: 'GET', url: `/api/tips/subscribers/show?subscriber_id=${subscriberId}` });
    expect(before.json().subscriber.last_portal_sign_in).toBeNull();
    await signIn('0711000060');
    const after = await t.as(staffToken, { method: 'GET', url: `/api/tips/subscribers/show?subscriber_id=${subscriberId}` });
    expect(Date.now() - new Date(after.json().subscriber.last_portal_sign_in).getTime()).toBeLessThan(60_000);
  });

  it('an admin marks a post category free on the Catalogue (audited), which puts its posts on the home page', async () => {
    const saved = await t.as(staffToken, { method: 'POST', url: '/api/catalogue/post-categories/store', payload: { name: 'Jackpot free', public: true } });
    expect(saved.statusCode).toBe(200);
    const catalogue = await t.as(staffToken, { method: 'GET', url: '/api/catalogue' });
    const row = catalogue.json().post_categories.find((c: { name: string }) => c.name === 'Jackpot free');
    expect(row).toMatchObject({ public: true });
    await addPost('Jackpot pick', ref.o15, row.id, contract.nairobiDayOf(new Date()));
    expect((await t.app.inject({ method: 'GET', url: '/portal' })).body).toContain('Jackpot pick: Arsenal to win');
    const [audited] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.entity, 'post_category'), eq(auditLog.entityId, String(row.id))));
    expect(audited!.after).toEqual({ name: 'Jackpot free', public: true });
  });
});
