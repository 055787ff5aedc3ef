import { afterEach, describe, expect, it, vi } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { announceCommitted, NOTICE_GAP_MS } from '../../src/modules/events/service.ts';

const dialect = new PgDialect();

/** A database that records the payment ids of each NOTIFY statement it is sent; `fail` fails the next one. */
function notifyingDb() {
  const statements: number[][] = [];
  let fail = false;
  const db = {
    async execute(query: SQL) {
      const { params } = dialect.sqlToQuery(query);
      const payloads = JSON.parse(String(params.at(-1))) as string[];
      statements.push(payloads.map((p) => (JSON.parse(p) as { event: { payment_id: number } }).event.payment_id));
      if (fail) {
        fail = false;
        throw new Error('database gone');
      }
      return { rows: [] };
    },
  };
  return { db: db as unknown as Db, statements, failNext: () => (fail = true) };
}

const received = (paymentId: number) => ({ type: 'payment.received' as const, payment_id: paymentId, amount: 5, sender_name: null, account: null, status: 'unclaimed' });

describe('announcements of committed payments (issue 33, decision 053)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends at once when the process is quiet, and a burst waits for the gap and shares one statement, in order', async () => {
    vi.useFakeTimers();
    const { db, statements } = notifyingDb();
    const first = announceCommitted(db, received(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(statements).toEqual([[1]]);
    await first;

    const burst = [2, 3, 4].map((id) => announceCommitted(db, received(id)));
    await vi.advanceTimersByTimeAsync(NOTICE_GAP_MS - 1);
    expect(statements).toEqual([[1]]);
    // One more made while the burst waits rides with it.
    burst.push(announceCommitted(db, received(5)));
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(burst);
    expect(statements).toEqual([[1], [2, 3, 4, 5]]);

    // After a quiet spell, the next goes at once again.
    await vi.advanceTimersByTimeAsync(NOTICE_GAP_MS);
    await announceCommitted(db, received(6));
    expect(statements).toEqual([[1], [2, 3, 4, 5], [6]]);
  });

  it('tells every announcement of a failed statement, and the next ones are sent all the same', async () => {
    vi.useFakeTimers();
    const { db, statements, failNext } = notifyingDb();
    failNext();
    const shared = Promise.allSettled([announceCommitted(db, received(1)), announceCommitted(db, received(2))]);
    await vi.advanceTimersByTimeAsync(0);
    expect((await shared).map((o) => o.status)).toEqual(['rejected', 'rejected']);
    const next = announceCommitted(db, received(3));
    await vi.advanceTimersByTimeAsync(NOTICE_GAP_MS);
    await next;
    expect(statements).toEqual([[1, 2], [3]]);
  });
});
