import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, withPreparedStatements, type Database } from '../../src/db/client.ts';
import { rows } from '../../src/db/rows.ts';
import { serverDatabase } from '../helpers.ts';

// The C2B confirmation's statements are prepared by name on PostgreSQL (decision 047): parsed and
// planned once per connection instead of once per payment. The embedded database has no such cost.
const server = await serverDatabase('betdesk_prepared');

describe.skipIf(!server)('statements prepared for a hot path (PostgreSQL)', () => {
  let database: Database;
  beforeAll(async () => {
    // One connection, so that every statement below meets the statements the ones before it prepared.
    database = await openDatabase({ url: server!.url, poolSize: 1 });
  });
  afterAll(async () => {
    await database.close();
    await server!.drop();
  });

  const preparedNamed = (text: string) =>
    rows<{ name: string }>(database.db, sql`select name from pg_prepared_statements where statement = ${text} and not from_sql`);

  it('prepares a parameterized statement once per connection under withPreparedStatements, and reuses it', async () => {
    for (const amount of [100, 200, 300]) {
      const [row] = await withPreparedStatements(() =>
        database.db.transaction((tx) => rows<{ doubled: number }>(tx, sql`select ${amount}::int * 2 as doubled`)),
      );
      expect(row?.doubled).toBe(amount * 2);
    }
    const named = await preparedNamed('select $1::int * 2 as doubled');
    expect(named).toHaveLength(1);
    expect(named[0]?.name).toMatch(/^b_/);
  });

  it('leaves other statements unnamed (a list or a search is planned for its own values)', async () => {
    const [row] = await rows<{ tripled: number }>(database.db, sql`select ${7}::int * 3 as tripled`);
    expect(row?.tripled).toBe(21);
    expect(await preparedNamed('select $1::int * 3 as tripled')).toHaveLength(0);
  });
});
