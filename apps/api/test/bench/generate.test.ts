import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { counts, generate, ownerMismatches, SHAPES } from '../../../../bench/generate.ts';
import { BENCH_STAFF_EMAIL } from '../../../../bench/accounts.ts';
import { onServer } from '../global-setup.ts';

/**
 * The bench generator on PostgreSQL (it writes set-based SQL that PGlite is not asked to run): at a
 * small scale, the interleaved shape has its row counts, its owners (20 staff members, each every 20th
 * client, the rare one every 100th from the 50th) and every client-owned row carries its client's staff
 * member, as an UPDATE from client_assignments would have set it.
 */
const server = process.env.DATABASE_URL;
const scale = 0.001;

function databaseUrl(): string {
  const url = new URL(server!);
  url.pathname = `${url.pathname}_gen`;
  return url.toString();
}

describe.skipIf(!server)('bench generator, interleaved shape', () => {
  afterAll(async () => {
    await onServer(server!, `drop database if exists ${new URL(databaseUrl()).pathname.slice(1)} with (force)`);
  });

  it('makes the shape it describes, owners included', async () => {
    await generate({ url: databaseUrl(), scale, fresh: true, batch: 1000, shape: SHAPES.interleaved });
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      const one = async (sql: string) => (await client.query<{ n: number }>(sql)).rows[0]!.n;
      const n = counts(scale);
      expect(await one(`select count(*)::int as n from clients`)).toBe(n.clients);
      expect(await one(`select count(*)::int as n from bets`)).toBe(n.bets);
      expect(await one(`select count(*)::int as n from mpesa_payments`)).toBe(n.payments);
      expect(await one(`select count(*)::int as n from tips_subscribers`)).toBe(n.subscribers);
      expect(await one(`select count(*)::int as n from subscriptions`)).toBe(n.subscriptions);
      expect(await one(`select count(*)::int as n from sms_messages`)).toBe(n.sms);
      expect(await one(`select count(*)::int as n from bets where status = 'open'`)).toBe(Math.min(n.bets, SHAPES.interleaved.openBets));

      // Every client is assigned; the clients of one id class modulo 20 (the 50th of each 100 aside) share one staff member.
      expect(await one(`select count(*)::int as n from client_assignments`)).toBe(n.clients);
      const { rows: parts } = await client.query<{ part: number; users: number; clients: number }>(`
        select id % 20 as part, count(distinct a.user_id)::int as users, count(*)::int as clients
          from clients c join client_assignments a on a.client_id = c.id where c.id % 100 <> 50 group by 1 order by 1`);
      expect(parts).toHaveLength(20);
      expect(parts.every((p) => p.users === 1)).toBe(true);
      expect(await one(`select count(distinct a.user_id)::int as n from clients c join client_assignments a on a.client_id = c.id where c.id % 100 <> 50`)).toBe(20);
      expect(await one(`select count(distinct a.user_id)::int as n from clients c join client_assignments a on a.client_id = c.id where c.id % 100 = 50`)).toBe(1);
      expect(await one(`select count(*)::int as n from clients c join users u on u.id = c.assigned_user_id where u.email = '${BENCH_STAFF_EMAIL}'`))
        .toBe(await one(`select count(*)::int as n from clients where id % 20 = 0`));

      // Interleaved, not clustered: each of the 20 staff members' bets reach across nine tenths of the table.
      expect(await one(`select count(*)::int as n from (select assigned_user_id from bets group by 1
                          having max(id) - min(id) >= 0.9 * ${n.bets}) s`)).toBeGreaterThanOrEqual(20);

      // Each row's owner is its client's assignment (none without a client).
      expect(await ownerMismatches(client)).toEqual([]);
      expect(await one(`select count(*)::int as n from subscriptions where client_id is null and assigned_user_id is not null`)).toBe(0);
      expect(await one(`select count(*)::int as n from bets where assigned_user_id is null`)).toBe(0);
    } finally {
      await client.end();
    }
  }, 300_000);
});
