import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { startFakeDaraja, type FakeDaraja } from '../../api/src/integrations/mpesa/fake-daraja.ts';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '../../api/src/integrations/sms/fake-africastalking.ts';
import { startDataDirFrom } from '../../../scripts/migrated-data-dir.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The shared E2E server of the running test's project (playwright.config.ts: `shared` or `shared-2`,
 * decision 100): its port and its data directory, which holds the webhook secret it generated.
 */
export function sharedServer(): { port: string; dataDir: string } {
  const metadata = base.info().project.metadata as { port?: string; dataDir?: string };
  return {
    port: metadata.port ?? process.env.E2E_PORT ?? '3111',
    dataDir: metadata.dataDir ?? process.env.E2E_DATA_DIR ?? `${root}/data/e2e`,
  };
}

function runScript(script: string, args: string[]): void {
  const server = sharedServer();
  execFileSync('node', ['--import', 'tsx', script, ...args], {
    cwd: root,
    env: {
      ...process.env,
      PORT: server.port,
      HOST: '127.0.0.1',
      DATA_DIR: server.dataDir,
    },
    stdio: 'pipe',
  });
}

/** `npm run simulate:payment` against the E2E server, as a user would run it. */
export function simulatePayment(args: string[]): void {
  runScript('scripts/simulate-payment.ts', args);
}

/** `npm run simulate:sms` (an incoming SMS or opt-out, as Africa's Talking posts it) against the E2E server. */
export function simulateSms(args: string[]): void {
  runScript('scripts/simulate-sms.ts', args);
}

/**
 * The phone declares 18+ by texting `18` to the short code (decision 066), as Africa's Talking posts an
 * inbound SMS: a first tips purchase from a phone that never declared is held until it does.
 */
export async function declareAdult(request: APIRequestContext, webhookSecret: string, phone: string): Promise<void> {
  const from = phone.startsWith('0') ? `+254${phone.slice(1)}` : phone.startsWith('+') ? phone : `+${phone}`;
  const declared = await request.post(`/api/hooks/sms/inbound/${webhookSecret}`, {
    form: { from, to: '20880', text: '18', id: `e2e-age-${from}-${Date.now()}` },
  });
  expect(declared.ok(), await declared.text()).toBe(true);
}

/** Accounts of the E2E server (playwright.config.ts env and the demo seed). */
export const admin = { email: 'admin@betdesk.test', password: 'e2e-admin-password' };
export const staff = { email: 'wanjiku@betdesk.local', password: 'betdesk-demo' };

/** Signs in through the login form and waits for the dashboard. */
export async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No TCP port for a second E2E server');
  return address.port;
}

/** With E2E_SCREENSHOTS=<dir>: the page at 1366 and 375 px wide, for a person to look at. */
/** The headers of an admin's API calls (signed in through the login route, as the web app does). */
export async function adminHeaders(request: APIRequestContext, who: { email: string; password: string } = admin) {
  const login = await request.post('/api/auth/login', { data: who });
  return { authorization: `Bearer ${(await login.json()).token as string}`, 'x-requested-with': 'XMLHttpRequest' };
}

/**
 * The portal's sign-in by SMS code on the page as it stands (the phone form shown): the phone typed as
 * a punter types it ("0712 345 678"), the code read from the fake gateway's messages to that phone.
 */
export async function signInToPortalByCode(page: Page, gateway: FakeAfricasTalking, typedPhone: string): Promise<void> {
  const number = `+254${typedPhone.replace(/\D/g, '').slice(1)}`;
  await page.getByLabel('Phone number').fill(typedPhone);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  let code = '';
  await expect
    .poll(() => {
      code = gateway.accepted.find((m) => m.number === number && /sign-in code/.test(m.message))?.message.match(/\b(\d{6})\b/)?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await page.getByLabel(/6-digit code/).fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A phone no agent has yet: 0722 and six digits of the clock (the shared server keeps its agents from run to run). */
export const freshAgentPhone = (): string => `0722${Date.now().toString().slice(-6)}`;

/** An agent of the shared server (registered through the API when there is none): for the screens that list agents. */
export async function anAgent(request: APIRequestContext): Promise<{ id: number; name: string }> {
  const headers = await adminHeaders(request);
  const answer = await request.get('/api/agents?page=1&perPage=50', { headers });
  expect(answer.ok(), await answer.text()).toBe(true);
  const listed = (await answer.json()) as { agents: { id: number; name: string }[] };
  if (listed.agents[0]) return listed.agents[0];
  const made = await request.post('/api/agents', { headers, data: { name: 'Wairimu Stage Agent', phone: freshAgentPhone() } });
  expect(made.ok(), await made.text()).toBe(true);
  return ((await made.json()) as { agent: { id: number; name: string } }).agent;
}

/**
 * A paybill payment from a masked phone (`simulate:payment`), claimed by an admin to the first active
 * tips subscriber through the API: the set-up of a test about a claimed payment's row.
 */
export async function claimedPayment(
  request: APIRequestContext,
  payment: { receiptPrefix: string; amount: number; name: string },
): Promise<{ headers: Awaited<ReturnType<typeof adminHeaders>>; receipt: string; transaction: { id: number }; subscriber: { id: number; name: string } }> {
  const headers = await adminHeaders(request);
  const { subscribers } = await (await request.get('/api/tips/subscribers/active?perPage=50', { headers })).json();
  const subscriber = subscribers[0] as { id: number; name: string };
  const receipt = `${payment.receiptPrefix}${Date.now().toString().slice(-(10 - payment.receiptPrefix.length))}`;
  simulatePayment(['--amount', String(payment.amount), '--account', 'HELLO', '--msisdn-mode', 'masked', '--name', payment.name, '--receipt', receipt]);
  const found = await (await request.get(`/api/mpesa-transactions/search?search=${receipt}`, { headers })).json();
  const transaction = found.transactions[0] as { id: number };
  const claim = await request.post('/api/mpesa-transactions/claim', { headers, data: { transaction_id: transaction.id, subscriber_id: subscriber.id } });
  expect(claim.status()).toBe(200);
  return { headers, receipt, transaction, subscriber };
}

/** An admin opens M-Pesa Transactions and searches a receipt, whose row says claimed. */
export async function claimedRowOnPaymentsScreen(page: Page, receipt: string): Promise<void> {
  await signIn(page, admin);
  await page.goto('/mpesa');
  await page.getByPlaceholder('Sender name, phone or ref, then Enter').fill(receipt);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(`status-${receipt}`)).toHaveText(/^claimed$/i);
}

export async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

export interface OwnServer {
  baseURL: string;
  stop(): Promise<void>;
}

/** A second admin the operator makes on the server (`npm run create-user`), outside the web's two-person rule. */
export const partner = { email: 'partner@betdesk.test', password: 'e2e-partner-password', name: 'Amina Wafula', phone: '0733444555' };

/**
 * A second API server serving the same SPA build, for a spec that needs settings the shared E2E
 * server does not have (an SMS gateway other than the log). Its own fresh PGlite directory and no
 * demo data, so it sends nothing the spec did not ask for; the same admin account. With
 * `operatorAdmins`, the operator makes the admin and them as `npm run create-user` does before the
 * server first starts: a new install with admins independent of one another (decision 056).
 */
export async function startOwnServer(env: Record<string, string>, operatorAdmins: (typeof partner)[] = []): Promise<OwnServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'betdesk-e2e-own-'));
  // Its own PGlite starts as a copy of the run's migrated one (scripts/run-e2e.ts, decision 097).
  if (!process.env.E2E_OWN_DATABASE_URL) startDataDirFrom(process.env.E2E_PGLITE_TEMPLATE, dataDir);
  if (operatorAdmins.length > 0) {
    const all = [{ ...admin, name: 'Administrator', phone: '0700000000' }, ...operatorAdmins];
    execFileSync('node', ['--import', 'tsx', 'apps/web/e2e/operator-admins.ts', JSON.stringify(all)], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
      stdio: 'pipe',
    });
  }
  const server = spawn('node', ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // Its own PGlite; E2E_OWN_DATABASE_URL (an empty PostgreSQL database, one spec at a time) runs it on PostgreSQL.
      DATABASE_URL: process.env.E2E_OWN_DATABASE_URL ?? '',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  // Booting (migrations, the demo seed, the fake feed's first sync) takes well under a minute on an idle
  // machine and has taken over two on a loaded 2-core one; the deadline is for a server that never comes
  // up, inside the fixture's own 240 s (an exited server fails at once).
  const deadline = Date.now() + 210_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    const healthy = await fetch(`${baseURL}/api/health`).then((res) => res.ok, () => false);
    if (healthy) return { baseURL, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`The second E2E server did not start on ${baseURL}:\n${stderr}`);
}

/**
 * The test of a spec that runs its own server (startOwnServer) sending its SMS to a fake Africa's
 * Talking the spec reads (`gateway`: sign-in codes, receipts, refusals), with `env` added to the
 * server's environment. Specs that need more fakes (portal.spec: Daraja) build their own.
 */
export function testWithOwnServer(env: Record<string, string> = {}, operatorAdmins: (typeof partner)[] = []) {
  return base.extend<{ gateway: FakeAfricasTalking; ownServer: OwnServer }>({
    gateway: async ({}, use) => {
      const gateway = await startFakeAfricasTalking({ username: 'sandbox', apiKey: 'e2e-api-key' });
      await use(gateway);
      await gateway.close();
    },
    ownServer: [
      async ({ gateway }, use) => {
        const server = await startOwnServer({
          SMS_PROVIDER: 'africastalking',
          AT_USERNAME: 'sandbox',
          AT_API_KEY: 'e2e-api-key',
          AT_BASE_URL: gateway.url,
          ...env,
        }, operatorAdmins);
        await use(server);
        await server.stop();
      },
      { timeout: 240_000 },
    ],
    baseURL: async ({ ownServer }, use) => {
      await use(ownServer.baseURL);
    },
  });
}

/**
 * The same with a fake Daraja too (the shared E2E server has no M-Pesa): `env` adds the shortcode,
 * passkey or webhook secret the spec needs. Daraja would call the public callback or result URL; the
 * fake calls this server at the same path.
 */
export function testWithOwnServerAndDaraja(
  env: Record<string, string>,
  daraja: { callbackDelayMs?: number } = {},
  operatorAdmins: (typeof partner)[] = [],
) {
  return base.extend<{ daraja: FakeDaraja; gateway: FakeAfricasTalking; ownServer: OwnServer }>({
    daraja: async ({}, use) => {
      const fake = await startFakeDaraja();
      if (daraja.callbackDelayMs !== undefined) fake.callbackDelayMs = daraja.callbackDelayMs;
      await use(fake);
      await fake.close();
    },
    gateway: async ({}, use) => {
      const gateway = await startFakeAfricasTalking({ username: 'sandbox', apiKey: 'e2e-api-key' });
      await use(gateway);
      await gateway.close();
    },
    ownServer: [
      async ({ daraja: fake, gateway }, use) => {
        const server = await startOwnServer({
          SMS_PROVIDER: 'africastalking',
          AT_USERNAME: 'sandbox',
          AT_API_KEY: 'e2e-api-key',
          AT_BASE_URL: gateway.url,
          MPESA_BASE_URL: fake.baseUrl,
          MPESA_CONSUMER_KEY: fake.consumerKey,
          MPESA_CONSUMER_SECRET: fake.consumerSecret,
          MPESA_CALLBACK_BASE_URL: 'https://betdesk.example.com',
          ...env,
        }, operatorAdmins);
        fake.deliver = async (url, body) => {
          await fetch(`${server.baseURL}${new URL(url).pathname}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        };
        await use(server);
        await server.stop();
      },
      { timeout: 240_000 },
    ],
    baseURL: async ({ ownServer }, use) => {
      await use(ownServer.baseURL);
    },
  });
}
