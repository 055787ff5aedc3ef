import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueSms } from '../../src/modules/sms/outbox.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

// Decision 082: the time-bound tables stay whole, because their idempotency keys must be unique
// across all time; a table partitioned by month could only make them unique per month.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const KEPT_WHOLE: Array<[table: string, key: string]> = [
  ['sms_messages', 'dedupe_key'],
  ['sms_inbound', 'provider_id'],
  ['ussd_purchases', 'session_id'],
  ['audit_log', 'id'],
];

describe('time-bound tables (decision 082)', () => {
  it('are plain tables whose idempotency key is unique by itself', async () => {
    for (const [table, key] of KEPT_WHOLE) {
      const { rows } = await t.deps.database.executeSql(
        `select c.relkind,
                exists (select 1 from pg_index i
                         where i.indrelid = c.oid and i.indisunique and i.indnkeyatts = 1
                           and i.indkey[0] = (select attnum from pg_attribute where attrelid = c.oid and attname = $2)) as unique_alone
           from pg_class c where c.oid = $1::regclass`,
        [table, key],
      );
      expect(rows[0], table).toEqual({ relkind: 'r', unique_alone: true });
    }
  });

  it('queues a message once per dedupe key even when the first lies in an earlier month', async () => {
    const message = { intent: 'test.months', dedupeKey: 'months:254712000082', to: '254712000082', body: 'Habari', createdBy: null };
    const first = await queueSms(t.deps.db, message);
    expect(first).toBeTypeOf('number');
    await t.deps.database.executeSql(`update sms_messages set created_at = now() - interval '40 days' where id = $1`, [first]);
    expect(await queueSms(t.deps.db, message)).toBeNull();
    const { rows } = await t.deps.database.executeSql(`select count(*)::int as n from sms_messages where dedupe_key = $1`, [message.dedupeKey]);
    expect(rows[0]).toEqual({ n: 1 });
  });
});
