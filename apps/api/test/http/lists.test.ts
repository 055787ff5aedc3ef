import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { COUNT_CAP, MAX_LIST_OFFSET, SEARCH_COUNT_STEP } from '@betdesk/contract';
import { DEFERRED_FROM } from '../../src/db/list.ts';
import { rows } from '../../src/db/rows.ts';
import { createTestApp, ADMIN, type TestApp } from '../helpers.ts';
import { addClient } from '../clients/fixtures.ts';
import { c2b, confirm, seedPeople } from '../mpesa/fixtures.ts';

/**
 * The one list mechanism (decision 015): sort columns from the contract, Nairobi day ranges on the
 * rows, their totals and their export, a refused deep page, and capped counts for broad searches.
 */

let t: TestApp;
let admin: string;
let staff: string;
let staffId: number;

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

beforeAll(async () => {
  t = await createTestApp();
  await seedPeople(t);
  await t.addUser({ email: 'boss@x.test', categoryId: ADMIN });
  staffId = await t.addUser({ email: 'staff@x.test' });
  admin = await t.tokenFor('boss@x.test');
  staff = await t.tokenFor('staff@x.test');
  // Around Nairobi midnight between 21 and 22 November 2026 (M-Pesa's TransTime is Nairobi time).
  const payments: [string, string, string][] = [
    ['20261121235900', '1000.00', 'MIDNIGHT A'],
    ['20261122000100', '2500.00', 'MIDNIGHT B'],
    ['20261122120000', '40.50', 'NOON C'],
    ['20261123080000', '99.00', 'MORNING D'],
  ];
  for (const [at, amount, name] of payments) {
    const [first, last] = name.split(' ');
    const answer = await confirm(t, c2b({ TransTime: at, TransAmount: amount, BillRefNumber: `ZZ${at}`, FirstName: first, LastName: last }));
    expect(answer.statusCode).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('date ranges (Africa/Nairobi days, inclusive)', () => {
  it('narrows the rows and the totals to the days, at Nairobi midnight', async () => {
    const day22 = (await get(admin, '/api/mpesa-transactions?from=2026-11-22&to=2026-11-22')).json();
    expect(day22.transactions.map((p: { sender_name: string }) => p.sender_name)).toEqual(['NOON C', 'MIDNIGHT B']);
    expect(day22.total_records).toBe(2);
    expect(day22.total_deposit).toBe(2540.5);
    expect(day22.total_unclaimed).toBe(2540.5);

    const from22 = (await get(admin, '/api/mpesa-transactions?from=2026-11-22')).json();
    expect(from22.total_records).toBe(3);
    const to21 = (await get(admin, '/api/mpesa-transactions?to=2026-11-21')).json();
    expect(to21.transactions.map((p: { sender_name: string }) => p.sender_name)).toEqual(['MIDNIGHT A']);
    expect(to21.total_deposit).toBe(1000);
    const all = (await get(admin, '/api/mpesa-transactions')).json();
    expect(all.total_deposit).toBe(3639.5);
  });

  it('narrows the CSV export the same way, in the screen formats', async () => {
    const csv = await get(admin, '/api/mpesa-transactions/export?from=2026-11-22&to=2026-11-22&sort=amount&dir=asc');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Transaction Ref,Sender Name,Sender Phone,Amount (KES),Account Number,Transaction Time,Status,Client / Subscriber');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['NOON C', 'MIDNIGHT B']);
    expect(lines[2]).toContain('"22 Nov 2026, 00:01"');
    expect(lines[2]).toContain('0799000001');
  });

  it('refuses a bad date, a date that is not on the calendar and an end before the start (422 naming the field)', async () => {
    for (const [query, field] of [
      ['from=22-11-2026', 'from'],
      ['to=2026-02-30', 'to'],
      ['from=2026-11-23&to=2026-11-22', 'to'],
    ] as const) {
      const answer = await get(admin, `/api/mpesa-transactions?${query}`);
      expect(answer.statusCode).toBe(422);
      expect(Object.keys(answer.json().errors)).toEqual([field]);
    }
  });

  it('refuses a date range on a list that has no date', async () => {
    const answer = await get(admin, '/api/clients?from=2026-11-22');
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.from).toBeDefined();
  });
});

describe('sorting', () => {
  it('sorts by a column the contract names, in either direction', async () => {
    const asc = (await get(admin, '/api/mpesa-transactions?sort=amount&dir=asc')).json();
    expect(asc.transactions.map((p: { amount: number }) => p.amount)).toEqual([40.5, 99, 1000, 2500]);
    const desc = (await get(admin, '/api/mpesa-transactions?sort=amount')).json();
    expect(desc.transactions.map((p: { amount: number }) => p.amount)).toEqual([2500, 1000, 99, 40.5]);
    const newest = (await get(admin, '/api/mpesa-transactions')).json();
    expect(newest.transactions[0].sender_name).toBe('MORNING D');
  });

  it('answers 422 for a column it cannot sort by, or a bad direction', async () => {
    const column = await get(admin, '/api/mpesa-transactions?sort=sender_name');
    expect(column.statusCode).toBe(422);
    expect(column.json().errors.sort[0]).toContain('transaction_timestamp, amount');
    const dir = await get(admin, '/api/bets/closed?dir=up');
    expect(dir.statusCode).toBe(422);
    expect(dir.json().errors.dir).toBeDefined();
  });
});

describe('paging', () => {
  it(`refuses a page beyond the first ${MAX_LIST_OFFSET} rows with a hint to narrow the list`, async () => {
    const deep = await get(admin, `/api/mpesa-transactions?perPage=2000&page=${MAX_LIST_OFFSET / 2000 + 2}`);
    expect(deep.statusCode).toBe(422);
    expect(deep.json().errors.page[0]).toContain('narrow the list');
    const last = await get(admin, `/api/mpesa-transactions?perPage=2000&page=${MAX_LIST_OFFSET / 2000 + 1}`);
    expect(last.statusCode).toBe(200);
  });

  it('pages the formerly unbounded lists: active clients and open bets', async () => {
    for (let i = 0; i < 55; i += 1) {
      const id = await addClient(t.deps.db, { name: `Paged Client ${String(i).padStart(2, '0')}`, staffId: i < 3 ? staffId : undefined });
      const bet = await t.as(admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: id, stake: 10 + i, description: `Match ${i}` } });
      expect(bet.statusCode).toBe(200);
    }
    const active = (await get(admin, '/api/clients/active?perPage=50&page=2')).json();
    expect(active.active_clients).toHaveLength(5);
    expect(active.total_records).toBe(55);
    expect(active.total_active_clients).toBe(55);
    const searched = (await get(admin, '/api/clients/active?search=Client%2005')).json();
    expect(searched.active_clients.map((c: { name: string }) => c.name)).toEqual(['Paged Client 05']);

    const open = (await get(admin, '/api/bets/open?perPage=50')).json();
    expect(open.bets).toHaveLength(50);
    expect(open.total_records).toBe(55);
    expect(open.total_open_bets).toBe(55);
    expect(open.bets[0].description).toBe('Match 54');
    const byStake = (await get(admin, '/api/bets/open?sort=stake&dir=asc&search=Match%201')).json();
    expect(byStake.bets.map((b: { stake: number }) => b.stake)).toEqual([11, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    const mine = (await get(staff, '/api/bets/open')).json();
    expect(mine.total_records).toBe(3);
    expect(mine.total_open_bets).toBeUndefined();

    const dashboard = (await get(admin, '/api/dashboard')).json();
    expect(dashboard.active_clients).toHaveLength(10);
    expect(dashboard.total_active_clients).toBe(55);
  }, 120_000);
});

describe('counting a broad search', () => {
  it(`stops at the next ${SEARCH_COUNT_STEP} past the page, never past ${COUNT_CAP}, and says so; totals of money stay exact`, async () => {
    await t.deps.database.executeSql(`
      insert into mpesa_payments (trans_id, source, amount_cents, sender_name, raw, status, received_at)
      select 'CAP' || n, 'c2b', 100, 'MARY WANJIKU', '{}'::jsonb, 'unclaimed', now() - make_interval(secs => n)
        from generate_series(1, ${COUNT_CAP + 5}) as n`);
    const searched = (await get(admin, '/api/mpesa-transactions/search?search=wanjiku')).json();
    expect(searched.total_records).toBe(SEARCH_COUNT_STEP);
    expect(searched.total_capped).toBe(true);
    expect(searched.transactions).toHaveLength(50);
    // The count always reaches past the page on screen, so the next page stays reachable.
    const reach = async (page: number, perPage: number) => {
      const body = (await get(admin, `/api/mpesa-transactions/search?search=wanjiku&page=${page}&perPage=${perPage}`)).json();
      return [body.total_records, body.total_capped, body.transactions.length];
    };
    expect(await reach(20, 50)).toEqual([2 * SEARCH_COUNT_STEP, true, 50]);
    expect(await reach(1, 2000)).toEqual([3 * SEARCH_COUNT_STEP, true, 2000]);
    expect(await reach(200, 50)).toEqual([COUNT_CAP, true, 50]);
    expect(await reach(201, 50)).toEqual([COUNT_CAP, true, 5]);
    // A search that matches fewer rows than it reaches is counted exactly.
    const few = (await get(admin, '/api/mpesa-transactions/search?search=CAP1000')).json();
    expect(few.total_records).toBe(7);
    expect(few.total_capped).toBeUndefined();
    const all = (await get(admin, '/api/mpesa-transactions')).json();
    expect(all.total_records).toBe(4 + COUNT_CAP + 5);
    expect(all.total_capped).toBeUndefined();
    expect(all.total_unclaimed).toBe(3639.5 + COUNT_CAP + 5);
  }, 60_000);
});

describe('counting the active subscribers', () => {
  it(`reaches the next ${SEARCH_COUNT_STEP} past the page, as a search does: its exists is a test per row counted`, async () => {
    const before = (await get(admin, '/api/tips/subscribers/active')).json().total_records as number;
    await t.deps.database.executeSql(`
      with s as (
        insert into tips_subscribers (name, phone, phone_hash)
        select 'Active ' || n, '2547990' || lpad(n::text, 5, '0'), md5('active' || n) from generate_series(1, ${SEARCH_COUNT_STEP + 5}) as n
        returning id)
      insert into subscriptions (subscriber_id, duration_days, amount_cents, starts_at, expires_at, source)
      select id, 7, 10000, now() - interval '1 day', now() + interval '6 days', 'manual' from s`);
    const first = (await get(admin, '/api/tips/subscribers/active')).json();
    expect([first.total_records, first.total_capped, first.subscribers.length]).toEqual([SEARCH_COUNT_STEP, true, 50]);
    // From page 20 of 50 it reaches 2,000: every active subscriber is counted, exactly.
    const deep = (await get(admin, '/api/tips/subscribers/active?page=20&perPage=50')).json();
    expect(deep.total_records).toBe(before + SEARCH_COUNT_STEP + 5);
    expect(deep.total_capped).toBeUndefined();
  }, 60_000);
});

describe('a page deep in a list', () => {
  // After the broad search above, more than 10,000 payments are stored.
  it(`is picked by its ids first past row ${DEFERRED_FROM}, and is the same page, in either direction`, async () => {
    for (const [sort, dir, column] of [
      ['transaction_timestamp', 'desc', sql.raw('paid_at desc, id desc')],
      ['amount', 'asc', sql.raw('amount_cents asc, id asc')],
    ] as const) {
      // The last plain page, the first deferred one, and one far down.
      for (const page of [DEFERRED_FROM / 50, DEFERRED_FROM / 50 + 1, 150]) {
        const answer = (await get(admin, `/api/mpesa-transactions?page=${page}&perPage=50&sort=${sort}&dir=${dir}`)).json();
        const expected = await rows<{ id: string }>(
          t.deps.db,
          sql`select id from mpesa_payments order by ${column} limit 50 offset ${(page - 1) * 50}`,
        );
        expect(expected).toHaveLength(50);
        expect(answer.transactions.map((r: { id: number }) => r.id)).toEqual(expected.map((r) => Number(r.id)));
      }
    }
  }, 60_000);
});
