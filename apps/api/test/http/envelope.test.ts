import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint, Id, permissionMatrix, statusTexts } from '@betdesk/contract';
import { route } from '../../src/http/route.ts';
import { redactUrl } from '../../src/http/logger.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let adminToken: string;
let staffToken: string;

const adminOnly = endpoint({
  method: 'GET',
  path: '/api/test/admin-only',
  tag: 'test',
  summary: 'guarded by manage:users',
  access: 'manage:users',
  response: z.object({ ok: z.boolean() }),
});
const everyone = endpoint({
  method: 'GET',
  path: '/api/test/everyone',
  tag: 'test',
  summary: 'guarded by view:dashboard',
  access: 'view:dashboard',
  query: z.object({ n: z.coerce.number().int().positive() }),
  response: z.object({ n: z.number() }),
});
const byId = endpoint({
  method: 'POST',
  path: '/api/test/by-id',
  tag: 'test',
  summary: 'an id and a list of ids',
  access: 'view:dashboard',
  body: z.object({ id: Id, ids: z.array(Id) }),
  response: z.object({ ok: z.boolean() }),
});
const boom = endpoint({
  method: 'GET',
  path: '/api/test/boom',
  tag: 'test',
  summary: 'throws',
  access: 'public',
  response: z.object({}),
});

// Two public twins answering the same 2 kB body: one as a browser's page reads it, one as a provider's callback.
const bigBody = z.object({ text: z.string() });
const browserAnswer = endpoint({ method: 'GET', path: '/api/test/browser-answer', tag: 'test', summary: 'a browser reads it', access: 'public', response: bigBody });
const callbackAnswer = endpoint({ method: 'GET', path: '/api/test/callback-answer', tag: 'test', summary: 'a provider reads it', access: 'public', response: bigBody });

beforeAll(async () => {
  // The guard is one mechanism; these throwaway routes exercise it the way every domain route will.
  t = await createTestApp({
    routes: (app) => {
      route(app, adminOnly, async () => ({ ok: true }));
      route(app, everyone, async ({ query }) => ({ n: query.n }));
      route(app, byId, async () => ({ ok: true }));
      route(app, browserAnswer, async () => ({ text: 'x'.repeat(2048) }));
      route(app, callbackAnswer, async () => ({ text: 'x'.repeat(2048) }), { callback: true });
      route(app, boom, async () => {
        throw new Error('select * from secrets where password = 123');
      });
    },
  });
  await t.addUser({ email: 'boss@example.com', categoryId: ADMIN });
  await t.addUser({ email: 'staff@example.com' });
  adminToken = await t.tokenFor('boss@example.com');
  staffToken = await t.tokenFor('staff@example.com');
});
afterAll(() => t.close());

describe('permission guard', () => {
  it('lets an admin through an admin-only route', async () => {
    const res = await t.as(adminToken, { method: 'GET', url: '/api/test/admin-only' });
    expect(res.statusCode).toBe(200);
  });

  it('answers 403 to staff on an admin-only route, saying what is needed', async () => {
    const res = await t.as(staffToken, { method: 'GET', url: '/api/test/admin-only' });
    expect(res.statusCode).toBe(403);
    expect(res.json().info).toContain(statusTexts[403]);
    expect(res.json().info).toContain('admin');
  });

  it('answers 401 before 403 when nobody is signed in', async () => {
    const res = await t.as(null, { method: 'GET', url: '/api/test/admin-only' });
    expect(res.statusCode).toBe(401);
    expect(res.json().info).toBe(statusTexts[401]);
  });

  it('lets staff through a route of both roles and validates its query', async () => {
    expect((await t.as(staffToken, { method: 'GET', url: '/api/test/everyone?n=3' })).json()).toEqual({ n: 3 });
    const bad = await t.as(staffToken, { method: 'GET', url: '/api/test/everyone?n=abc' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('n');
  });

  it('decides who may call before looking at what they sent', async () => {
    const anonymous = await t.as(null, { method: 'GET', url: '/api/test/everyone?n=abc' });
    expect(anonymous.statusCode).toBe(401);
    const staffOnAdminRoute = await t.as(staffToken, { method: 'GET', url: '/api/test/admin-only?junk=1' });
    expect(staffOnAdminRoute.statusCode).toBe(403);
  });

  it('keeps the matrix of BUSINESS-RULES.md: money and users are admin-only', () => {
    for (const p of ['view:mpesa', 'manage:users', 'assign:clients', 'claim:payments', 'manage:tips-prices', 'manage:promo-codes'] as const) {
      expect(permissionMatrix[p]).toEqual(['admin']);
    }
    for (const p of ['manage:clients', 'manage:bets', 'manage:tips-content', 'manage:tips-subscribers'] as const) {
      expect(permissionMatrix[p]).toEqual(['admin', 'staff']);
    }
  });
});

describe('response envelope', () => {
  it('answers unknown API paths with 404 and known paths with another method with 405', async () => {
    const missing = await t.as(null, { method: 'GET', url: '/api/no-such-thing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().info).toBe(statusTexts[404]);
    const wrongMethod = await t.as(null, { method: 'GET', url: '/api/auth/login' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.json().info).toBe(statusTexts[405]);
  });

  it('refuses ids past the database integer range with a 422, not a database error', async () => {
    const res = await t.as(staffToken, { method: 'POST', url: '/api/test/by-id', payload: { id: 99_999_999_999, ids: [1] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.id).toEqual(['No such record']);
  });

  it('keys errors of list items by the form field, and by their full path', async () => {
    const res = await t.as(staffToken, { method: 'POST', url: '/api/test/by-id', payload: { id: 1, ids: [1, 'x'] } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['ids', 'ids.1']);
  });

  it('hides the cause of a 500 behind the spec text and a request id', async () => {
    const res = await t.as(null, { method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json().info).toBe(statusTexts[500]);
    expect(res.body).not.toContain('secrets');
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await t.as(null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.co', password: 'x'.repeat(1_100_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().info).toBe('The request body is too large.');
  });

  it("answers a provider's callback without the browser's headers and uncompressed, and a browser with both", async () => {
    const headers = { 'accept-encoding': 'br, gzip' };
    const browser = await t.as(null, { method: 'GET', url: '/api/test/browser-answer', headers });
    expect(browser.headers['content-encoding']).toBe('br');
    expect(browser.headers['content-security-policy']).toContain("default-src 'self'");
    const callback = await t.as(null, { method: 'GET', url: '/api/test/callback-answer', headers });
    expect(callback.statusCode).toBe(200);
    expect(callback.headers['content-encoding']).toBeUndefined();
    expect(callback.headers['content-security-policy']).toBeUndefined();
    expect(callback.json().text).toHaveLength(2048);
    // What every API answer carries still does: its request id, and no caching.
    expect(callback.headers['x-request-id']).toBeTruthy();
    expect(callback.headers['cache-control']).toBe('no-store');
  });

  it('sends security headers with a CSP the SPA can live with', async () => {
    const res = await t.as(null, { method: 'GET', url: '/api/health' });
    expect(res.json()).toMatchObject({ status: 'ok' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the OpenAPI document generated from the contract', async () => {
    const res = await t.as(null, { method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/auth/refresh', '/api/auth/save-password']),
    );
    expect(doc.paths['/api/auth/login'].post.requestBody).toBeDefined();
  });
});

describe('logs', () => {
  it('never write the secret segment of a webhook URL', () => {
    expect(redactUrl('/api/hooks/c2b/confirmation/abcdefghijklmnop1234')).toBe(
      '/api/hooks/c2b/confirmation/[secret]',
    );
    expect(redactUrl('/api/auth/login')).toBe('/api/auth/login');
  });
});
