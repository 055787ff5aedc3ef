import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { staticCacheControl } from '../../src/http/web.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

/** Issue 13, "a light first load": compressed answers, immutable hashed assets, index.html revalidated. */
let t: TestApp;
let web: FastifyInstance;
let webRoot: string;
const script = `console.log(${JSON.stringify('betdesk '.repeat(400))});\n`;

beforeAll(async () => {
  t = await createTestApp();
  webRoot = mkdtempSync(join(tmpdir(), 'betdesk-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(webRoot, 'assets', 'index-Ab3_x-9Z.js'), script);
  writeFileSync(join(webRoot, 'assets', 'index-Ab3_x-9Z.js.gz'), gzipSync(script));
  writeFileSync(join(webRoot, 'assets', 'index-Ab3_x-9Z.js.br'), brotliCompressSync(script));
  web = await buildApp(t.deps, { webRoot });
  await web.ready();
});

afterAll(async () => {
  await web?.close();
  await t?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('compression of API answers', () => {
  it('gzips a JSON answer over 1 kB for a client that accepts it, and leaves it plain for one that does not', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const zipped = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.body.length / 3);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
  });

  it('prefers brotli when offered', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('leaves a small answer alone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('the built SPA', () => {
  it('serves a hashed asset precompressed and cached for a year', async () => {
    const res = await web.inject({ method: 'GET', url: '/assets/index-Ab3_x-9Z.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('serves index.html as no-cache, on its own path and for any screen', async () => {
    for (const url of ['/index.html', '/dashboard', '/tips/posts/all']) {
      const res = await web.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body).toContain('id="root"');
    }
  });

  it('keeps immutable caching to hashed names', () => {
    expect(staticCacheControl('/srv/dist/assets/react-GCt8JoUg.js')).toBe('public, max-age=31536000, immutable');
    expect(staticCacheControl('/srv/dist/assets/index-DS-WmfRV.css.gz')).toBe('public, max-age=31536000, immutable');
    expect(staticCacheControl('/srv/dist/index.html')).toBe('no-cache');
    expect(staticCacheControl('/srv/dist/favicon.ico')).toBe('no-cache');
  });
});
