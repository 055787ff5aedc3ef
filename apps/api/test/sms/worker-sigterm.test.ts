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

/**
 * SIGTERM to `npm run worker` (src/worker.ts, the real process) in the middle of an SMS fan-out:
 * it finishes the batch in flight, exits 0 within SHUTDOWN_TIMEOUT_SECONDS, and leaves every
 * message sent exactly once or still queued; a restarted worker sends the rest by itself.
 */
const WORKER = fileURLToPath(new URL('../../src/worker.ts', import.meta.url));
const MESSAGES = 300;
const RATE = 40; // messages a second, and so at most 40 a batch: the fan-out takes about 8 s
const GRACE_SECONDS = 10;

let dataDir: string;
let where: DatabaseOptions;
let dropDatabase = async () => {};
let fake: FakeAfricasTalking;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'betdesk-sms-sigterm-'));
  // On PGlite the worker opens DATA_DIR/pglite; the test opens it only while no worker runs (one process at a time).
  const database = await databaseForProcesses(join(dataDir, 'pglite'));
  where = database.where;
  dropDatabase = database.drop;
  fake = await startFakeAfricasTalking({ username: AT_USERNAME, apiKey: AT_API_KEY });
});
afterAll(async () => {
  await fake.close();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
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
      DATABASE_URL: where.url ?? '',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SMS_PROVIDER: 'africastalking',
      SMS_SEND_RATE: String(RATE),
      SMS_BATCH_SIZE: String(RATE),
      AT_USERNAME,
      AT_API_KEY,
      AT_BASE_URL: fake.url,
      SHUTDOWN_TIMEOUT_SECONDS: String(GRACE_SECONDS),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/**
 * The worker's exit, with the end of what it wrote to stderr: a failing exit code is reported with it
 * (an uncaught error's source line can be a whole minified bundle, so only the last lines are kept).
 */
const exited = (child: ChildProcess) => {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  return new Promise<{ code: number | null; at: number; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, at: Date.now(), stderr: stderr.slice(-3_000) })),
  );
};

/** The numbers the gateway was asked to reach, one entry per time it was asked. */
const received = () => fake.calls.flatMap((call) => call.to.map((n) => n.replace('+', '')));

async function statuses(): Promise<Record<string, number>> {
  return withDatabase(async (database) => {
    const { rows } = await database.executeSql(`select status, count(*)::int as n from sms_messages group by status`);
    return Object.fromEntries(rows.map((r) => [String(r.status), Number(r.n)]));
  });
}

describe('a worker stopped by SIGTERM mid fan-out', () => {
  it('exits 0 within its grace, loses and doubles nothing, and a restarted worker sends the rest', async () => {
    const numbers = phones(MESSAGES, 254710700000);
    await withDatabase(async (database) => {
      await database.migrate();
      await queueTo(database, numbers, 'Tips blast: Gor Mahia vs AFC Leopards, both teams to score');
    });

    // SIGTERM while the third request is at the gateway: that batch is in flight when it lands.
    const first = startWorker();
    const firstExit = exited(first);
    let signalledAt = 0;
    fake.onCall = (call) => {
      if (call.seq !== 3) return;
      signalledAt = Date.now();
      first.kill('SIGTERM');
    };
    const { code, at, stderr } = await firstExit;
    fake.onCall = null;
    expect(signalledAt).toBeGreaterThan(0);
    expect(code, `the first worker's stderr:\n${stderr}`).toBe(0);
    expect(at - signalledAt).toBeLessThan(GRACE_SECONDS * 1000);

    // Stopped mid-way: what reached the gateway is recorded sent, once; the rest is still queued.
    const afterStop = await statuses();
    const reached = received();
    expect(new Set(reached).size).toBe(reached.length);
    expect(reached.length).toBeGreaterThanOrEqual(3 * RATE); // the batch in flight was finished
    expect(reached.length).toBeLessThan(MESSAGES);
    expect(afterStop).toEqual({ sent: reached.length, queued: MESSAGES - reached.length });

    // A restarted worker takes up the rest by itself (no new job from the API, no cron minute).
    const second = startWorker();
    const secondExit = exited(second);
    const deadline = Date.now() + 60_000;
    while (received().length < MESSAGES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    second.kill('SIGTERM');
    const stopped = await secondExit;
    expect(stopped.code, `the restarted worker's stderr:\n${stopped.stderr}`).toBe(0);

    const all = received();
    expect(all).toHaveLength(MESSAGES);
    expect(new Set(all)).toEqual(new Set(numbers));
    expect(await statuses()).toEqual({ sent: MESSAGES });
  }, 180_000);
});
