import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { inject } from 'vitest';
import { onServer } from './global-setup.ts';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { ADMIN_CATEGORY_ID, AGENT_CATEGORY_ID, PORTAL_COOKIE } from '@betdesk/contract';
import { smsMessages } from '../src/db/schema/index.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database, type DatabaseOptions, type Queryable } from '../src/db/client.ts';
import type { AppDeps } from '../src/deps.ts';
import type { ReadRouting } from '../src/db/replica.ts';
import { buildApp } from '../src/app.ts';
import { logGateway } from '../src/integrations/sms/log-gateway.ts';
import { noJobs } from '../src/jobs/jobs.ts';
import { createUser } from '../src/modules/users/service.ts';

export const TEST_PASSWORD = 'correct-horse-battery';

/**
 * A fresh database for one test file, migrated and with the settings' defaults: in-memory PGlite
 * by default, or a new database on the PostgreSQL server of DATABASE_URL (dropped again by close()).
 * It is a copy of the one the run's global setup migrated (test/global-setup.ts).
 */
async function freshDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const migrated = inject('migratedDatabase');
  if (migrated.kind === 'pglite') {
    return { database: await openDatabase({ startFrom: new Blob([readFileSync(migrated.dump)]) }), drop: async () => {} };
  }
  const server = await serverDatabase('betdesk_test', migrated.template);
  if (!server) throw new Error('The run migrated a PostgreSQL template but DATABASE_URL is not set');
  return { database: await openDatabase({ url: server.url }), drop: server.drop };
}

/**
 * A new database on the PostgreSQL server of DATABASE_URL (`prefix` names it), empty or a copy of
 * `template`, with the URL to open it and drop() to drop it; null when the tests run on PGlite.
 */
export async function serverDatabase(prefix = 'betdesk_test', template?: string): Promise<{ url: string; drop(): Promise<void> } | null> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return null;
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`) };
}

/**
 * A database for processes the test starts itself (a worker, a server), migrated with the settings'
 * defaults: on PostgreSQL a new database copied from the run's migrated template, on PGlite the data
 * directory `pgliteDir` copied from the run's migrated one (decision 097), instead of an initdb and
 * every migration per file. `where` opens it; `drop()` removes it.
 */
export async function databaseForProcesses(pgliteDir: string): Promise<{ where: DatabaseOptions; drop(): Promise<void> }> {
  const migrated = inject('migratedDatabase');
  if (migrated.kind === 'postgres') {
    const server = await serverDatabase('betdesk_test', migrated.template);
    if (!server) throw new Error('The run migrated a PostgreSQL template but DATABASE_URL is not set');
    return { where: { url: server.url }, drop: server.drop };
  }
  cpSync(migrated.dataDir, pgliteDir, { recursive: true });
  return { where: { dataDir: pgliteDir }, drop: async () => rmSync(pgliteDir, { recursive: true, force: true }) };
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  /** Creates a user and returns their id. */
  addUser(u: { email: string; categoryId?: number; name?: string; phone?: string }): Promise<number>;
  /** Signs in and returns the bearer token. */
  tokenFor(email: string, password?: string): Promise<string>;
  /** app.inject with a bearer token. */
  as(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Extra routes registered before the app is ready (to exercise shared mechanisms). */
  routes?: (app: FastifyInstance) => void;
  /** A read replica's routing over the test's database (decision 073; the replica faked). */
  reads?: (database: Database) => ReadRouting;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { database, drop } = await freshDatabase();
  const config = loadConfig({
    DATA_DIR: '/tmp/betdesk-test-data',
    SECRETS_KEY: '0'.repeat(64),
    WEBHOOK_SECRET: 'test-webhook-secret-0123',
    NODE_ENV: 'test',
    ...options.env,
  });
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    jobs: noJobs,
    sms: logGateway(pino({ level: 'silent' }), 1000),
    reads: options.reads?.(database) ?? null,
  };
  const app = await buildApp(deps, { serveWeb: false });
  options.routes?.(app);
  await app.ready();

  let phoneSeq = 0;
  const testApp: TestApp = {
    app,
    deps,
    async addUser(u) {
      phoneSeq += 1;
      return createUser(
        database.db,
        {
          name: u.name ?? u.email.split('@')[0]!,
          email: u.email,
          phone_number: u.phone ?? `07${String(10_000_000 + phoneSeq).slice(-8)}`,
          password: TEST_PASSWORD,
          category_id: u.categoryId ?? AGENT_CATEGORY_ID,
        },
        null,
      );
    },
    async tokenFor(email, password = TEST_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.body}`);
      return res.json().token as string;
    },
    as(token, options) {
      const headers = { ...(options.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
      return app.inject({ ...options, headers });
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
  return testApp;
}

export const ADMIN = ADMIN_CATEGORY_ID;
export const AGENT = AGENT_CATEGORY_ID;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The plan PostgreSQL chooses for a query: the indexes it reads and the tables it scans whole. */
export async function explain(query: SQL, db: Queryable): Promise<{ indexes: string[]; seqScans: string[] }> {
  const result = (await db.execute(sql`explain (format json) ${query}`)) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
  const raw = result.rows[0]!['QUERY PLAN'];
  const [top] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  const indexes: string[] = [];
  const seqScans: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Index Name']) indexes.push(node['Index Name']);
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) seqScans.push(node['Relation Name']);
    node.Plans?.forEach(walk);
  };
  walk(top!.Plan);
  return { indexes, seqScans };
}

/** Marketing consent for these phones, as staff would record it: promotional SMS may go to them (decision 025). */
export async function giveMarketingConsent(t: TestApp, ...phones: string[]): Promise<void> {
  for (const phone of phones) {
    await t.deps.db.execute(sql`
      insert into marketing_consents (phone, given, channel, wording, note)
      values (${phone}, true, 'staff', 'Test consent', 'Given in a test') on conflict (phone) do update set given = true`);
  }
}

/**
 * Turns KRA invoicing on as an admin does on the Tax screen: the device's settings (VAT-registered,
 * PIN P051234567X, branch 00) pointed at a fake OSCU, then its initialisation; throws when either is refused.
 */
export async function initialiseTaxDevice(t: TestApp, admin: string, oscuBaseUrl: string, serial = 'BETDESK-01'): Promise<void> {
  const saved = await t.as(admin, {
    method: 'POST',
    url: '/api/tax/settings',
    payload: { tin: 'P051234567X', branch_id: '00', device_serial: serial, vat_registered: true, base_url: oscuBaseUrl },
  });
  if (saved.statusCode !== 200) throw new Error(`tax settings refused: ${saved.statusCode} ${saved.body}`);
  const initialised = await t.as(admin, { method: 'POST', url: '/api/tax/initialise' });
  if (initialised.statusCode !== 200) throw new Error(`tax device not initialised: ${initialised.statusCode} ${initialised.body}`);
}

/**
 * Signs a phone (07… form) in to the portal as a punter does: asks for a code, reads it from the SMS
 * Betdesk queued, verifies it from the same address. Returns the portal's cookie header.
 */
export async function signInToPortal(t: TestApp, local: string, remoteAddress: string): Promise<string> {
  const asked = await t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone: local }, remoteAddress });
  if (asked.statusCode !== 200) throw new Error(`asking a code for ${local}: ${asked.statusCode} ${asked.body}`);
  const [sms] = await t.deps.db
    .select({ body: smsMessages.body })
    .from(smsMessages)
    .where(and(eq(smsMessages.recipient, `254${local.slice(1)}`), eq(smsMessages.intent, 'portal.sign-in-code')))
    .orderBy(desc(smsMessages.id))
    .limit(1);
  const code = sms && /\b(\d{6})\b/.exec(sms.body)?.[1];
  if (!code) throw new Error(`no sign-in code was texted to ${local}`);
  const res = await t.app.inject({ method: 'POST', url: '/api/portal/auth/verify', payload: { phone: local, code }, remoteAddress });
  const cookie = res.cookies.find((c) => c.name === PORTAL_COOKIE);
  if (res.statusCode !== 200 || !cookie) throw new Error(`verifying ${local}'s code: ${res.statusCode} ${res.body}`);
  return `${PORTAL_COOKIE}=${cookie.value}`;
}
