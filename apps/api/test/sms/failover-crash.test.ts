import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/db/client.ts';
import { databaseForProcesses } from '../helpers.ts';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import { startFakeAdvanta, type FakeAdvanta } from '../../src/integrations/sms/fake-advanta.ts';
import { AT_API_KEY, AT_USERNAME, phones, queueTo } from './sms-test-kit.ts';

const WORKER = fileURLToPath(new URL('./dispatch-worker.ts', import.meta.url));
const MESSAGES = 60;
const BATCH = 10;
const CLAIM_MS = 1_000;

/** As worker-crash.test.ts: a database both this process and the worker's can open. */
let where: DatabaseOptions;
let dropDatabase = async () => {};
let at: FakeAfricasTalking;
let advanta: FakeAdvanta;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-sms-failover-crash-'));
  const database = await databaseForProcesses(join(dir, 'pglite'));
  where = database.where;
  dropDatabase = async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  at = await startFakeAfricasTalking({ username: AT_USERNAME, apiKey: AT_API_KEY });
  advanta = await startFakeAdvanta({ apiKey: 'adv-key', partnerId: '4242', creditKes: 10_000 });
});
afterAll(async () => {
  await at.close();
  await advanta.close();
  await dropDatabase();
});

async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(where);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

function startWorker(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: {
      ...process.env,
      WORKER_DATABASE_URL: where.url ?? '',
      WORKER_PGLITE_DIR: where.dataDir ?? '',
      WORKER_BATCH_SIZE: String(BATCH),
      WORKER_CLAIM_MS: String(CLAIM_MS),
      AT_USERNAME,
      AT_API_KEY,
      AT_BASE_URL: at.url,
      ADVANTA_BASE_URL: advanta.url,
      ADVANTA_API_KEY: 'adv-key',
      ADVANTA_PARTNER_ID: '4242',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('a dispatcher killed -9 during failover (decision 062)', () => {
  it('loses nothing and doubles nothing: the batch in flight at the secondary is unconfirmed, the rest goes once', async () => {
    const numbers = phones(MESSAGES, 254710600000);
    await withDatabase(async (database) => {
      await database.migrate();
      await queueTo(database, numbers, 'Tips of the day: Bandari vs AFC Leopards, GG');
    });
    // Africa's Talking is down (every request answered 503, never accepted): the circuit opens and
    // the batches go to Advanta, whose third request reaches it as the worker dies.
    at.failNextCalls(503, 1_000);
    const third = new Promise<void>((resolve) => {
      advanta.onCall = (seq) => {
        if (seq !== 3) return;
        resolve();
        return 'hold';
      };
    });
    const first = startWorker();
    const firstExit = exited(first);
    await third;
    first.kill('SIGKILL');
    expect(await firstExit).toBeNull();
    advanta.onCall = null;

    await new Promise((resolve) => setTimeout(resolve, CLAIM_MS + 200));
    const second = startWorker();
    let output = '';
    second.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await exited(second)).toBe(0);
    expect(JSON.parse(output)).toMatchObject({ sent: MESSAGES - 3 * BATCH, unconfirmed: 0, failed: 0 });

    // Africa's Talking accepted none; every number reached Advanta exactly once (accepted or held).
    expect(at.accepted).toHaveLength(0);
    const received = [...advanta.accepted.map((a) => a.mobile), ...advanta.heldMobiles];
    expect(received).toHaveLength(MESSAGES);
    expect(new Set(received)).toEqual(new Set(numbers));

    const rows = await withDatabase(async (database) => (await database.executeSql(`select recipient, status, provider from sms_messages order by id`)).rows);
    const unconfirmed = rows.filter((r) => r.status === 'unconfirmed');
    expect(unconfirmed.map((r) => r.recipient).sort()).toEqual([...advanta.heldMobiles].sort());
    expect(unconfirmed.every((r) => r.provider === 'advanta')).toBe(true);
    expect(rows.filter((r) => r.status === 'sent' && r.provider === 'advanta')).toHaveLength(MESSAGES - BATCH);
  }, 120_000);
});
