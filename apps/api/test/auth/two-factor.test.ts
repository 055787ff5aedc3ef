import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generate } from 'otplib';
import { errorTexts, TWO_FACTOR_ENROLMENT_REQUIRED } from '@betdesk/contract';
import { loadConfig } from '../../src/config.ts';
import { clearSecondFactorByEmail } from '../../src/modules/auth/service.ts';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers.ts';

/** Issue 21, a second factor for admins: TOTP enrolment, the sign-in challenge, devices. */
let t: TestApp;

// The server checks codes against the clock: the tests move a fake clock (Date only; the database
// keeps its own) a whole 30-second step at a time, starting 5 s into a step.
const START = Date.UTC(2026, 10, 25, 9, 0, 5);
let clock = START;
function tick(steps = 1): void {
  clock += steps * 30_000;
  vi.setSystemTime(clock);
}
const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(clock / 1000) });

beforeAll(async () => {
  t = await createTestApp();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(clock);
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
});
afterEach(() => tick());

const post = (url: string, payload?: object, token: string | null = null, headers: Record<string, string> = {}) =>
  t.as(token, { method: 'POST', url, headers, ...(payload ? { payload } : {}) });

/** A new admin with two-factor sign-in on: their secret, recovery codes and a signed-in token. */
async function enrolledAdmin(email: string) {
  await t.addUser({ email, categoryId: ADMIN });
  const token = await t.tokenFor(email);
  const setup = await post('/api/auth/2fa/setup', undefined, token);
  const { secret } = setup.json();
  const enable = await post('/api/auth/2fa/enable', { code: await codeNow(secret) }, token);
  expect(enable.statusCode).toBe(200);
  tick();
  return { secret, token, recoveryCodes: enable.json().recovery_codes as string[] };
}

async function challengeFor(email: string): Promise<string> {
  const res = await post('/api/auth/login', { email, password: TEST_PASSWORD });
  expect(res.statusCode).toBe(200);
  return res.json().challenge;
}

describe('enrolment', () => {
  it('gives a base32 secret and its otpauth URL, seals the secret, and needs a right code to switch on', async () => {
    await t.addUser({ email: 'enrol@example.com', categoryId: ADMIN });
    const token = await t.tokenFor('enrol@example.com');
    const setup = await post('/api/auth/2fa/setup', undefined, token);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/Betdesk:enrol%40example\.com\?/);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain('issuer=Betdesk');

    const stored = await t.deps.database.executeSql(`select secret_sealed, enabled_at from user_second_factors`);
    expect(JSON.stringify(stored)).not.toContain(secret);

    const wrong = await post('/api/auth/2fa/enable', { code: '000000' }, token);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code[0]).toMatch(/not right/);
    const off = await t.as(token, { method: 'GET', url: '/api/auth/2fa' });
    expect(off.json()).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });

    const enable = await post('/api/auth/2fa/enable', { code: await codeNow(secret) }, token);
    expect(enable.statusCode).toBe(200);
    const codes = enable.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const hashes = await t.deps.database.executeSql(`select code_hash from recovery_codes`);
    expect(JSON.stringify(hashes)).not.toContain(codes[0]!);

    const on = await t.as(token, { method: 'GET', url: '/api/auth/2fa' });
    expect(on.json()).toEqual({ enabled: true, required: false, recovery_codes_left: 10 });
    const again = await post('/api/auth/2fa/setup', undefined, token);
    expect(again.statusCode).toBe(409);
  });
});

describe('sign-in with a second factor', () => {
  it('keeps the spec login shape for a user without one', async () => {
    await t.addUser({ email: 'plain@example.com' });
    const res = await post('/api/auth/login', { email: 'plain@example.com', password: TEST_PASSWORD });
    expect(Object.keys(res.json()).sort()).toEqual(['token', 'user']);
  });

  it('answers a challenge instead of a token, then the login response for a TOTP, which works once', async () => {
    const { secret } = await enrolledAdmin('totp@example.com');
    const login = await post('/api/auth/login', { email: 'totp@example.com', password: TEST_PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(Object.keys(login.json()).sort()).toEqual(['challenge', 'two_factor_required']);
    expect(login.json().two_factor_required).toBe(true);

    const code = await codeNow(secret);
    const verify = await post('/api/auth/2fa/verify', { challenge: login.json().challenge, code });
    expect(verify.statusCode).toBe(200);
    expect(Object.keys(verify.json()).sort()).toEqual(['token', 'user']);
    expect(verify.json().user).toMatchObject({ email: 'totp@example.com', is_admin: true });
    const me = await post('/api/auth/me', undefined, verify.json().token);
    expect(me.statusCode).toBe(200);

    // The same code again (seen over a shoulder) does not sign in a second time; the challenge is closed too.
    const replay = await post('/api/auth/2fa/verify', { challenge: await challengeFor('totp@example.com'), code });
    expect(replay.statusCode).toBe(422);
    const reused = await post('/api/auth/2fa/verify', { challenge: login.json().challenge, code });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.challenge).toBeDefined();
  });

  it('takes a recovery code once', async () => {
    const { recoveryCodes } = await enrolledAdmin('recovery@example.com');
    const typed = recoveryCodes[3]!.toUpperCase().replace('-', ' ');
    const first = await post('/api/auth/2fa/verify', { challenge: await challengeFor('recovery@example.com'), code: typed });
    expect(first.statusCode).toBe(200);
    expect(first.json().token).toEqual(expect.any(String));

    const second = await post('/api/auth/2fa/verify', {
      challenge: await challengeFor('recovery@example.com'),
      code: recoveryCodes[3],
    });
    expect(second.statusCode).toBe(422);
    const status = await t.as(first.json().token, { method: 'GET', url: '/api/auth/2fa' });
    expect(status.json().recovery_codes_left).toBe(9);
    const audit = await t.deps.database.executeSql(`select action from audit_log where action = 'user.2fa-recovery-code'`);
    expect(JSON.stringify(audit)).toContain('user.2fa-recovery-code');
  });

  it('refuses a wrong code naming the field, and closes the challenge after 5 wrong codes', async () => {
    const { secret } = await enrolledAdmin('wrong@example.com');
    const challenge = await challengeFor('wrong@example.com');
    for (let i = 0; i < 5; i++) {
      const res = await post('/api/auth/2fa/verify', { challenge, code: `12345${i}` });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.code[0]).toMatch(/not right/);
    }
    const right = await post('/api/auth/2fa/verify', { challenge, code: await codeNow(secret) });
    expect(right.statusCode).toBe(429);
    expect(right.json().info).toBe(errorTexts.tooManyLoginAttempts);
  });

  it('counts wrong codes per user across challenges, as the sign-in limiter does', async () => {
    const { secret } = await enrolledAdmin('spread@example.com');
    const a = await challengeFor('spread@example.com');
    const b = await challengeFor('spread@example.com');
    for (const [challenge, times] of [
      [a, 3],
      [b, 2],
    ] as const) {
      for (let i = 0; i < times; i++) {
        expect((await post('/api/auth/2fa/verify', { challenge, code: '999999' })).statusCode).toBe(422);
      }
    }
    const right = await post('/api/auth/2fa/verify', { challenge: a, code: await codeNow(secret) });
    expect(right.statusCode).toBe(429);
    const password = await post('/api/auth/login', { email: 'spread@example.com', password: TEST_PASSWORD });
    expect(password.statusCode).toBe(429);
  });

  it('turns off with the password only', async () => {
    const { token } = await enrolledAdmin('disable@example.com');
    const wrong = await post('/api/auth/2fa/disable', { password: 'not-my-password' }, token);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.password).toBeDefined();
    const off = await post('/api/auth/2fa/disable', { password: TEST_PASSWORD }, token);
    expect(off.statusCode).toBe(200);
    const login = await post('/api/auth/login', { email: 'disable@example.com', password: TEST_PASSWORD });
    expect(Object.keys(login.json()).sort()).toEqual(['token', 'user']);
  });

  it('is cleared by reset-password --clear-2fa, audited, with the sessions ended', async () => {
    const { token } = await enrolledAdmin('lostphone@example.com');
    expect(await clearSecondFactorByEmail(t.deps.db, 'LostPhone@example.com')).toMatchObject({ cleared: true });
    expect((await post('/api/auth/me', undefined, token)).statusCode).toBe(401);
    const login = await post('/api/auth/login', { email: 'lostphone@example.com', password: TEST_PASSWORD });
    expect(login.json().token).toEqual(expect.any(String));
    const audit = await t.deps.database.executeSql(`select action from audit_log where action = 'user.2fa-clear'`);
    expect(JSON.stringify(audit)).toContain('user.2fa-clear');
    expect(await clearSecondFactorByEmail(t.deps.db, 'nobody@example.com')).toBeNull();
  });
});

describe('signed-in devices', () => {
  const chrome =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const android =
    'Mozilla/5.0 (Linux; Android 14; SM-A155F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

  it("lists the user's sessions with device, IP and last seen, and ends one of them", async () => {
    await t.addUser({ email: 'devices@example.com' });
    const signIn = async (ua: string) =>
      (await post('/api/auth/login', { email: 'devices@example.com', password: TEST_PASSWORD }, null, { 'user-agent': ua })).json()
        .token as string;
    const desk = await signIn(chrome);
    const phone = await signIn(android);

    const list = await t.as(desk, { method: 'GET', url: '/api/auth/devices' });
    expect(list.statusCode).toBe(200);
    const items = list.json().items as { id: number; device: string; ip: string; last_seen: string; current: boolean }[];
    expect(items).toHaveLength(2);
    const mine = items.find((d) => d.current)!;
    const other = items.find((d) => !d.current)!;
    expect(mine.device).toBe('Chrome 131 on Windows 10');
    expect(other.device).toMatch(/^Chrome 130 on Android/);
    expect(mine.ip).toBe('127.0.0.1');
    expect(Number.isNaN(Date.parse(mine.last_seen))).toBe(false);

    const end = await post('/api/auth/devices/end', { session_id: other.id }, desk);
    expect(end.statusCode).toBe(200);
    expect((await post('/api/auth/me', undefined, phone)).statusCode).toBe(401);
    expect((await post('/api/auth/me', undefined, desk)).statusCode).toBe(200);
    const after = await t.as(desk, { method: 'GET', url: '/api/auth/devices' });
    expect(after.json().items).toHaveLength(1);
  });

  it("cannot end another user's session", async () => {
    await t.addUser({ email: 'nosy@example.com' });
    await t.addUser({ email: 'victim@example.com' });
    const nosy = await t.tokenFor('nosy@example.com');
    const victim = await t.tokenFor('victim@example.com');
    const victimSession = (await t.as(victim, { method: 'GET', url: '/api/auth/devices' })).json().items[0].id;
    const res = await post('/api/auth/devices/end', { session_id: victimSession }, nosy);
    expect(res.statusCode).toBe(404);
    expect((await post('/api/auth/me', undefined, victim)).statusCode).toBe(200);
    const bad = await post('/api/auth/devices/end', { session_id: 'x' }, nosy);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.session_id).toBeDefined();
  });
});

describe('REQUIRE_ADMIN_2FA', () => {
  it('is on in production and off otherwise unless set', () => {
    const secrets = { SECRETS_KEY: '1'.repeat(64), WEBHOOK_SECRET: 'a-webhook-secret-0123' };
    expect(loadConfig({ ...secrets, NODE_ENV: 'production' }).requireAdmin2fa).toBe(true);
    expect(loadConfig({ ...secrets, NODE_ENV: 'production', REQUIRE_ADMIN_2FA: '0' }).requireAdmin2fa).toBe(false);
    expect(loadConfig({ ...secrets }).requireAdmin2fa).toBe(false);
    expect(loadConfig({ ...secrets, REQUIRE_ADMIN_2FA: '1' }).requireAdmin2fa).toBe(true);
  });

  it('makes an admin without a second factor enrol before anything else; staff are not asked', async () => {
    // The setting is read per request, so this file's app is switched instead of booting a second one.
    t.deps.config.requireAdmin2fa = true;
    try {
      await t.addUser({ email: 'boss@example.com', categoryId: ADMIN });
      await t.addUser({ email: 'clerk@example.com' });
      const boss = await t.tokenFor('boss@example.com');
      const clerk = await t.tokenFor('clerk@example.com');

      const refused = await t.as(boss, { method: 'GET', url: '/api/settings' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe(TWO_FACTOR_ENROLMENT_REQUIRED);
      expect((await t.as(boss, { method: 'GET', url: '/api/dashboard' })).statusCode).toBe(403);
      expect((await t.as(clerk, { method: 'GET', url: '/api/dashboard' })).statusCode).toBe(200);
      expect((await post('/api/auth/refresh', undefined, boss)).statusCode).toBe(200);
      const status = await t.as(boss, { method: 'GET', url: '/api/auth/2fa' });
      expect(status.json()).toMatchObject({ enabled: false, required: true });

      const { secret } = (await post('/api/auth/2fa/setup', undefined, boss)).json();
      const enable = await post('/api/auth/2fa/enable', { code: await codeNow(secret) }, boss);
      expect(enable.statusCode).toBe(200);
      expect((await t.as(boss, { method: 'GET', url: '/api/settings' })).statusCode).toBe(200);
    } finally {
      t.deps.config.requireAdmin2fa = false;
    }
  });
});
