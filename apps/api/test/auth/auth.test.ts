import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { errorTexts, statusTexts, successTexts } from '@betdesk/contract';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.addUser({ email: 'admin@example.com', categoryId: ADMIN, name: 'Grace Admin' });
  await t.addUser({ email: 'agent@example.com', name: 'Kevin Agent' });
});
afterAll(() => t.close());

const post = (url: string, payload?: object, token: string | null = null) =>
  t.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) });

describe('POST /api/auth/login', () => {
  it('returns a token and the user with the admin flag', async () => {
    const res = await post('/api/auth/login', { email: 'Admin@Example.com', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(body.user).toMatchObject({
      name: 'Grace Admin',
      email: 'admin@example.com',
      category_id: 1,
      category_name: 'Admin',
      is_admin: true,
      total_clients: 0,
    });
    expect(body.user.id).toBe(body.user.user_id);
    expect(body.user.last_login).not.toBeNull();
    expect(body.user).not.toHaveProperty('password_hash');
  });

  it('marks staff as not admin', async () => {
    const res = await post('/api/auth/login', { email: 'agent@example.com', password: TEST_PASSWORD });
    expect(res.json().user).toMatchObject({ category_id: 2, category_name: 'Agent', is_admin: false });
  });

  it('requires email and password, naming each field', async () => {
    const res = await post('/api/auth/login', {});
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe(statusTexts[422]);
    expect(Object.keys(body.errors).sort()).toEqual(['email', 'password']);
  });

  it('refuses a wrong password without saying whether the email exists', async () => {
    const wrong = await post('/api/auth/login', { email: 'agent@example.com', password: 'nope-nope' });
    const unknown = await post('/api/auth/login', { email: 'ghost@example.com', password: 'nope-nope' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().info).toBe(errorTexts.wrongCredentials);
      expect(res.json().errors.email).toEqual([errorTexts.wrongCredentials]);
    }
  });

  it('answers malformed JSON with a 400 and a clear info, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().info).toBe('The request body is not valid JSON.');
    expect(res.body).not.toMatch(/at .*\.ts/);
  });
});

describe('login rate limit', () => {
  it('locks an email after 5 failures in the window, even for the right password', async () => {
    await t.addUser({ email: 'target@example.com' });
    for (let i = 0; i < 5; i++) {
      const res = await post('/api/auth/login', { email: 'target@example.com', password: `wrong-${i}` });
      expect(res.statusCode).toBe(422);
    }
    const locked = await post('/api/auth/login', { email: 'target@example.com', password: TEST_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().info).toBe(errorTexts.tooManyLoginAttempts);
    // Another account from another address is not affected.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.1.1.1',
      payload: { email: 'agent@example.com', password: TEST_PASSWORD },
    });
    expect(other.statusCode).toBe(200);
  });

  it('locks an IP address after 20 failures across emails', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 20; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: `spray${i}@example.com`, password: 'x' },
      });
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      payload: { email: 'agent@example.com', password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(429);
  });
});

describe('client addresses', () => {
  it('ignores X-Forwarded-For unless a proxy is trusted, so rotating it does not dodge the IP limit', async () => {
    for (let i = 0; i < 20; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.7.7.7',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
        payload: { email: `rotate${i}@example.com`, password: 'x' },
      });
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.7.7.7',
      headers: { 'x-forwarded-for': '203.0.113.250' },
      payload: { email: 'agent@example.com', password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(429);
  });
});

describe('sessions', () => {
  it('me and refresh return the user; refresh slides the expiry', async () => {
    const token = await t.tokenFor('agent@example.com');
    await t.deps.database.executeSql(
      `update sessions set expires_at = now() + interval '1 minute' where revoked_at is null`,
    );
    const me = await post('/api/auth/me', undefined, token);
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('agent@example.com');
    const refreshed = await post('/api/auth/refresh', undefined, token);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user.is_admin).toBe(false);
    const { rows } = await t.deps.database.executeSql(
      `select count(*)::int as n from sessions where revoked_at is null and expires_at > now() + interval '11 hours'`,
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('answers 401 without a token, with an unknown token and with an expired one', async () => {
    expect((await post('/api/auth/me')).statusCode).toBe(401);
    expect((await post('/api/auth/me', undefined, 'x'.repeat(43))).json().info).toBe(statusTexts[401]);
    const token = await t.tokenFor('agent@example.com');
    await t.deps.db.execute(sql`update sessions set expires_at = now() - interval '1 second'`);
    expect((await post('/api/auth/me', undefined, token)).statusCode).toBe(401);
  });

  it('logout revokes the token', async () => {
    const token = await t.tokenFor('agent@example.com');
    const out = await post('/api/auth/logout', undefined, token);
    expect(out.statusCode).toBe(200);
    expect((await post('/api/auth/me', undefined, token)).statusCode).toBe(401);
    expect((await post('/api/auth/logout', undefined, token)).statusCode).toBe(401);
  });
});

describe('POST /api/auth/save-password', () => {
  it('checks length and confirmation, naming the fields', async () => {
    const token = await t.tokenFor('agent@example.com');
    const short = await post('/api/auth/save-password', { password: 'short', password_confirmation: 'short' }, token);
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toHaveProperty('password');
    const mismatch = await post(
      '/api/auth/save-password',
      { password: 'a-long-password', password_confirmation: 'another-password' },
      token,
    );
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors).toHaveProperty('password_confirmation');
  });

  it('saves the password, revokes every session of the user and audits it', async () => {
    await t.addUser({ email: 'changer@example.com' });
    const first = await t.tokenFor('changer@example.com');
    const second = await t.tokenFor('changer@example.com');
    const res = await post(
      '/api/auth/save-password',
      { password: 'brand-new-password', password_confirmation: 'brand-new-password' },
      first,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toBe(successTexts.passwordSaved);
    expect((await post('/api/auth/me', undefined, first)).statusCode).toBe(401);
    expect((await post('/api/auth/me', undefined, second)).statusCode).toBe(401);
    await expect(t.tokenFor('changer@example.com')).rejects.toThrow();
    expect(await t.tokenFor('changer@example.com', 'brand-new-password')).toBeTruthy();
    const { rows } = await t.deps.database.executeSql(
      `select count(*)::int as n from audit_log where action = 'user.password-change'`,
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('needs a session', async () => {
    const res = await post('/api/auth/save-password', { password: 'abcdefgh', password_confirmation: 'abcdefgh' });
    expect(res.statusCode).toBe(401);
  });
});

describe('trashed users', () => {
  it('cannot use a session once trashed', async () => {
    const id = await t.addUser({ email: 'leaver@example.com' });
    const token = await t.tokenFor('leaver@example.com');
    await t.deps.database.executeSql(`update users set deleted_at = now() where id = $1`, [id]);
    expect((await post('/api/auth/me', undefined, token)).statusCode).toBe(401);
  });
});
