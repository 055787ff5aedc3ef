import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { chooseReads, lsnValue, ReadRouting, type ReplicaState } from '../../src/db/replica.ts';
import { sessions } from '../../src/db/schema/index.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';

/**
 * Decision 073: reading work goes to the replica unless the session has just written past what the
 * replica has replayed, the replica lags past the limit, or it does not answer. The replica here is
 * the test's own database seen through a second handle that counts its use; its state is faked.
 */

describe('the chooser', () => {
  it('compares LSNs as numbers, not text', () => {
    expect(lsnValue('0/A') < lsnValue('0/10')).toBe(true);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(() => lsnValue('nonsense')).toThrow();
  });

  it('reads on the replica only when it is there, caught up with the session and not lagging', () => {
    const state = (replayLsn: string, lagSeconds = 0): ReplicaState => ({ replayLsn, lagSeconds });
    expect(chooseReads(undefined, null, 30)).toEqual({ use: 'primary', because: 'no replica' });
    expect(chooseReads(null, null, 30)).toEqual({ use: 'primary', because: 'unreachable' });
    expect(chooseReads(state('0/50', 31), null, 30)).toEqual({ use: 'primary', because: 'lagging' });
    expect(chooseReads(state('0/50'), '0/51', 30)).toEqual({ use: 'primary', because: 'fresh write' });
    expect(chooseReads(state('0/51'), '0/51', 30)).toEqual({ use: 'replica' });
    expect(chooseReads(state('0/50', 30), null, 30)).toEqual({ use: 'replica' });
  });
});

let t: TestApp;
let token: string;
let replica: { state: ReplicaState | null | 'throws'; used: number; streamed: number };

/** The same database through a handle that counts every use of its `db` and its cursors. */
function countingReplica(database: Database): Database {
  const db = new Proxy(database.db, {
    get(target, property, receiver) {
      replica.used += 1;
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    ...database,
    db,
    streamRows(query, batchRows) {
      replica.streamed += 1;
      return database.streamRows(query, batchRows);
    },
    close: async () => {},
  };
}

beforeAll(async () => {
  replica = { state: { replayLsn: '0/0', lagSeconds: 0 }, used: 0, streamed: 0 };
  t = await createTestApp({
    reads: (database) =>
      new ReadRouting(database, countingReplica(database), {
        maxLagSeconds: 30,
        cacheMs: 0,
        probe: async () => {
          if (replica.state === 'throws') throw new Error('connect ECONNREFUSED');
          return replica.state;
        },
      }),
  });
  await t.addUser({ email: 'boss@replica.test', categoryId: ADMIN });
  token = await t.tokenFor('boss@replica.test');
});
afterAll(() => t.close());

/** Reads the audit log and answers whether the replica served it. */
async function auditReadOnReplica(): Promise<boolean> {
  const before = replica.used;
  const res = await t.as(token, { method: 'GET', url: '/api/audit' });
  expect(res.statusCode).toBe(200);
  return replica.used > before;
}

const sessionLsn = async () => {
  const rows = await t.deps.db.select({ lsn: sessions.lastWriteLsn }).from(sessions);
  return rows.map((r) => r.lsn).filter((lsn) => lsn !== null);
};

describe('a session with a read replica', () => {
  it('reads the audit log on the replica before it has written anything', async () => {
    replica.state = { replayLsn: '0/0', lagSeconds: 0 };
    expect(await auditReadOnReplica()).toBe(true);
  });

  it('after a write, reads from the primary until the replica has replayed past it', async () => {
    const write = await t.as(token, { method: 'POST', url: '/api/auth/refresh' });
    expect(write.statusCode).toBe(200);
    const [lsn] = await sessionLsn();
    expect(lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    replica.state = { replayLsn: '0/0', lagSeconds: 0 };
    expect(await auditReadOnReplica()).toBe(false);
    replica.state = { replayLsn: 'FFFFFFFF/FFFFFFFF', lagSeconds: 0 };
    expect(await auditReadOnReplica()).toBe(true);
  });

  it('a failed write moves nothing', async () => {
    const before = await sessionLsn();
    const bad = await t.as(token, { method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@replica.test', password: 'wrong-password' } });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(await sessionLsn()).toEqual(before);
  });

  it('skips a replica that lags past the limit, does not answer, or fails to say', async () => {
    replica.state = { replayLsn: 'FFFFFFFF/FFFFFFFF', lagSeconds: 31 };
    expect(await auditReadOnReplica()).toBe(false);
    replica.state = null;
    expect(await auditReadOnReplica()).toBe(false);
    replica.state = 'throws';
    expect(await auditReadOnReplica()).toBe(false);
  });

  it('streams an export from the replica when it is chosen, from the primary when not', async () => {
    replica.state = { replayLsn: 'FFFFFFFF/FFFFFFFF', lagSeconds: 0 };
    const before = replica.streamed;
    const res = await t.as(token, { method: 'GET', url: '/api/mpesa-transactions/export' });
    expect(res.statusCode).toBe(200);
    expect(replica.streamed).toBe(before + 1);
    replica.state = null;
    const down = await t.as(token, { method: 'GET', url: '/api/mpesa-transactions/export' });
    expect(down.statusCode).toBe(200);
    expect(replica.streamed).toBe(before + 1);
  });

  it('serves a report from the replica', async () => {
    replica.state = { replayLsn: 'FFFFFFFF/FFFFFFFF', lagSeconds: 0 };
    const before = replica.used;
    const res = await t.as(token, { method: 'GET', url: '/api/reports/income?from=2026-01-01&to=2026-01-31' });
    expect(res.statusCode, res.body).toBe(200);
    expect(replica.used).toBeGreaterThan(before);
  });
});
