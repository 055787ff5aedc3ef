import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { PORTAL_COOKIE, statusTexts } from '@betdesk/contract';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { fixedText } from '../../src/customer-texts/texts.ts';
import { LANGUAGE_COOKIE } from '../../src/modules/portal/routes.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

/**
 * Issue 27: /metrics without METRICS_TOKEN is a 404 (not the web app's page), a database that does
 * not answer makes /api/health and /metrics answer 503 with the reason (and sign-in and the portal's
 * pages too, the portal as a page in the reader's language), and a server started before
 * its database says so in one line naming the host and waits for it; so does a worker (npm run
 * worker) started before its database.
 */
const METRICS_TOKEN = 'metrics-token-0123456789';
/** Nothing listens on port 1: connections are refused at once. */
const NOWHERE = 'postgres://betdesk@127.0.0.1:1/betdesk';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), 'betdesk-unreachable-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers 404 for /metrics when METRICS_TOKEN is unset, also where the web app is served', async () => {
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Betdesk</title>');
  const app = await buildApp(t.deps, { webRoot: dir });
  try {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<title>Betdesk</title>');
    // Any other unknown path still gets the web app (it shows its own 404 page).
    expect((await app.inject({ method: 'GET', url: '/no-such-page' })).body).toContain('<title>Betdesk</title>');
  } finally {
    await app.close();
  }
});

describe('with the database unreachable', () => {
  let app: FastifyInstance;
  let nowhere: Database;
  beforeAll(async () => {
    nowhere = await openDatabase({ url: NOWHERE });
    const config = loadConfig({ DATA_DIR: dir, SECRETS_KEY: '0'.repeat(64), WEBHOOK_SECRET: 'test-webhook-secret-0123', METRICS_TOKEN });
    app = await buildApp({ ...t.deps, config, database: nowhere, db: nowhere.db }, { serveWeb: false });
  });
  afterAll(async () => {
    await app.close();
    await nowhere.close();
  });

  it('answers /api/health with 503 and the reason', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', database: 'postgres', reason: 'the database does not answer' });
  });

  it('answers a sign-in with 503 and says to try again, as health does', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@betdesk.test', password: 'whatever-it-is' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json()).toMatchObject({ message: statusTexts[503], info: statusTexts[503] });
    const portal = await app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone: '0712345678' } });
    expect(portal.statusCode).toBe(503);
    expect(portal.json()).toMatchObject({ info: statusTexts[503] });
  });

  it("answers the portal's pages with 503 as a page in the reader's language", async () => {
    const english = await app.inject({ method: 'GET', url: '/portal/sign-in' });
    expect(english.statusCode).toBe(503);
    expect(english.headers['content-type']).toMatch(/^text\/html/);
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain(fixedText('portal.unavailable.title', 'en'));
    expect(english.body).toContain(fixedText('portal.unavailable.text', 'en'));

    // The language the reader chose (the switch's cookie), and a signed-in reader's page (its
    // session cannot be read either).
    const kiswahili = await app.inject({
      method: 'GET',
      url: '/portal/tips',
      headers: { cookie: `${LANGUAGE_COOKIE}=sw; ${PORTAL_COOKIE}=${'a'.repeat(43)}` },
    });
    expect(kiswahili.statusCode).toBe(503);
    expect(kiswahili.body).toContain('<html lang="sw">');
    expect(kiswahili.body).toContain(fixedText('portal.unavailable.text', 'sw'));
    // A form posted to a page, in the language the browser asks for.
    const posted = await app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: { 'accept-language': 'sw-KE,sw;q=0.9,en;q=0.8' },
      payload: { phone: '0712345678' },
    });
    expect(posted.statusCode).toBe(503);
    expect(posted.body).toContain(fixedText('portal.unavailable.title', 'sw'));
  });

  it('answers /metrics with 503 and the reason', async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('the database does not answer');
  });
});

it.each(['main.ts', 'worker.ts'])('at boot, %s says in one line which database host refuses and keeps trying', async (entry) => {
  const script = fileURLToPath(new URL(`../../src/${entry}`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { PATH: process.env.PATH, DATABASE_URL: NOWHERE, DATA_DIR: dir, PORT: '1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  child.on('exit', () => (exited = true));
  try {
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve) => {
      const look = (chunk: Buffer) => {
        output += chunk.toString();
        if (/retrying/.test(output)) resolve();
      };
      child.stderr.on('data', look);
      child.on('exit', () => resolve());
    });
    expect(exited).toBe(false);
    expect(output.trim()).toBe('The database at 127.0.0.1:1 does not take connections (ECONNREFUSED); retrying every 2 s');
  } finally {
    child.kill('SIGKILL');
  }
}, 60_000);
