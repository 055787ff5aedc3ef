import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';

/**
 * The embedded database shares the process's event loop (src/db/fair-pglite.ts, decision 099): a long
 * chain of statements lets timers and pending I/O run between them, so a request or a test worker's
 * report is never held for the whole chain.
 */
describe.skipIf(process.env.DATABASE_URL)('the embedded database between statements', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(async () => {
    await database.close();
  });

  it('lets a timer run while a chain of statements goes on, and keeps the statements in order', async () => {
    let timerRuns = 0;
    const timer = setInterval(() => {
      timerRuns += 1;
    }, 1);
    const pglite = database.pglite!;
    await pglite.exec('create temporary table chain (n integer)');
    const started = Date.now();
    let statements = 0;
    try {
      // Well past the 20 ms turn: without a turn, the interval's callback could not run before the end.
      while (Date.now() - started < 300) {
        await pglite.query('insert into chain (n) values ($1)', [statements]);
        statements += 1;
      }
    } finally {
      clearInterval(timer);
    }
    const runsDuringChain = timerRuns;
    expect(runsDuringChain).toBeGreaterThan(0);
    const rows = await pglite.query<{ n: number }>('select n from chain order by ctid');
    expect(rows.rows.map((row) => row.n)).toEqual(Array.from({ length: statements }, (_, i) => i));
  });

  it('keeps a transaction whole while others wait their turn', async () => {
    const pglite = database.pglite!;
    await pglite.exec('create temporary table ledger (entry integer)');
    const seen: number[][] = [];
    const inTransaction = pglite.transaction(async (tx) => {
      for (let i = 0; i < 200; i += 1) await tx.query('insert into ledger (entry) values ($1)', [i]);
    });
    const reader = (async () => {
      const rows = await pglite.query<{ entries: number }>('select count(*)::int as entries from ledger');
      seen.push([rows.rows[0]!.entries]);
    })();
    await Promise.all([inTransaction, reader]);
    // The reader ran before the transaction began or after it committed, never inside it.
    expect([[0], [200]]).toContainEqual(seen[0]);
  });
});
