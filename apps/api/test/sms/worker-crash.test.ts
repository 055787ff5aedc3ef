import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/db/client.ts';
import { databaseForProcesses } from '../helpers.ts';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import { AT_API_KEY, AT_USERNAME, phones, queueTo } from './sms-test-kit.ts';

const WORKER = fileURLToPath(new URL('./dispatch-worker.ts', import.meta.url));
const MESSAGES = 60;
const BATCH = 10;
const CLAIM_MS = 1_000;

/**
 * The worker runs in another process, so the database must be one both can open: a database of its
 * own on the PostgreSQL server of DATABASE_URL, or an embedded PGlite directory that the test and
 * the worker open in turn (PGlite is single-process).
 */
let where: DatabaseOptions;
let dropDatabase = async () => {};
let fake: FakeAfricasTalking;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-sms-crash-'));
  const database = await databaseForProcesses(join(dir, 'pglite'));
  where = database.where;
  dropDatabase = async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  fake = await startFakeAfricasTalking({ username: AT_USERNAME, apiKey: AT_API_KEY });
});
afterAll(async () => {
  await fake.close();
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
      AT_BASE_URL: fake.url,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('a dispatcher killed mid-batch', () => {
  it('neither loses nor duplicates a message once a new dispatcher has run', async () => {
    const numbers = phones(MESSAGES, 254710500000);
    await withDatabase(async (database) => {
      await database.migrate();
      await queueTo(database, numbers, 'Tips blast: Shabana vs Tusker, Over 1.5');
    });

    // The third request reaches the gateway and the worker dies before the answer comes back.
    const third = new Promise<void>((resolve) => {
      fake.onCall = (call) => {
        if (call.seq !== 3) return;
        resolve();
        return 'hold';
      };
    });
    const first = startWorker();
    const firstExit = exited(first);
    await third;
    first.kill('SIGKILL');
    expect(await firstExit).toBeNull();
    fake.onCall = null;

    // A new dispatcher starts after the dead one's claim has run out.
    await new Promise((resolve) => setTimeout(resolve, CLAIM_MS + 200));
    const second = startWorker();
    let output = '';
    second.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await exited(second)).toBe(0);
    expect(JSON.parse(output)).toMatchObject({ sent: MESSAGES - 3 * BATCH, unconfirmed: 0, failed: 0 });

    // Every number reached the gateway exactly once.
    const received = fake.calls.flatMap((call) => call.to.map((n) => n.replace('+', '')));
    expect(received).toHaveLength(MESSAGES);
    expect(new Set(received)).toEqual(new Set(numbers));

    // Its fate is known: sent, or unconfirmed for the batch whose answer was lost with the worker.
    const rows = await withDatabase(async (database) => {
      const { rows } = await database.executeSql(`select recipient, status from sms_messages order by id`);
      return rows;
    });
    const unconfirmed = rows.filter((r) => r.status === 'unconfirmed').map((r) => `+${r.recipient}`);
    expect(unconfirmed).toEqual(fake.calls[2]!.to);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(MESSAGES - BATCH);
    expect(rows.every((r) => r.status === 'sent' || r.status === 'unconfirmed')).toBe(true);
  }, 120_000);
});
