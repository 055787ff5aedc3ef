import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAssignments, subscriptions } from '../../src/db/schema/index.ts';
import { openDatabase } from '../../src/db/client.ts';
import { buildApp } from '../../src/app.ts';
import { announce, visibleTo } from '../../src/modules/events/service.ts';
import { type TestApp } from '../helpers.ts';
import { c2b, confirm, peopleWorld, type Reference } from '../mpesa/fixtures.ts';
import { openStream, type EventStream } from './stream.ts';

let t: TestApp;
let ref: Reference;
let admin: string;
let staff: string;
let staffId: number;
const streams: EventStream[] = [];

async function stream(app: TestApp['app'], token: string): Promise<EventStream> {
  const s = await openStream(app, token);
  streams.push(s);
  await s.next('ready');
  return s;
}

/** A Bet4Me client with a running subscription, assigned to `userId` when given. */
async function activeClient(name: string, phone: string, userId?: number): Promise<number> {
  const id = await ref.person('client', name, phone);
  const now = Date.now();
  await t.deps.db.insert(subscriptions).values({
    clientId: id,
    planId: ref.weekly.id,
    durationDays: 7,
    amountCents: 100_000,
    startsAt: new Date(now - 60_000),
    expiresAt: new Date(now + 7 * 86_400_000),
    source: 'manual',
  });
  if (userId) await t.deps.db.insert(clientAssignments).values({ clientId: id, userId });
  return id;
}

beforeAll(async () => {
  ({ t, ref, admin, staff, staffId } = await peopleWorld());
});
afterAll(async () => {
  for (const s of streams) s.close();
  await t.close();
});

describe('GET /api/events', () => {
  it('needs a session in the Authorization header', async () => {
    expect((await t.as(null, { method: 'GET', url: '/api/events' })).statusCode).toBe(401);
    expect((await t.as(null, { method: 'GET', url: `/api/events?token=${admin}` })).statusCode).toBe(401);
  });

  it("tells an admin of a payment received, with the toast's facts; staff are not told", async () => {
    const adminStream = await stream(t.app, admin);
    const staffStream = await stream(t.app, staff);
    const received = adminStream.next('payment.received');
    await confirm(t, c2b({ BillRefNumber: 'NOBODY', MSISDN: '2547 ***** 555', TransAmount: '500.00', FirstName: 'JOHN', LastName: 'DOE' }));
    expect((await received).data).toMatchObject({ type: 'payment.received', amount: 500, sender_name: 'JOHN DOE', account: 'NOBODY', status: 'unclaimed' });

    // The staff member's next event is their own client's bet: the payment was never sent to them.
    const clientId = await activeClient('Peter Kamau', '254711000222', staffId);
    const staffBet = staffStream.next('bet.opened');
    const opened = await t.as(staff, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, name: 'Peter Kamau', stake: 100, description: 'Arsenal to win' } });
    expect(opened.statusCode).toBe(200);
    expect((await staffBet).data).toMatchObject({ type: 'bet.opened', client_id: clientId });
    expect(staffStream.seen.map((e) => e.event)).toEqual(['ready', 'bet.opened']);
  });

  it('announces nothing from a transaction that rolls back', async () => {
    const adminStream = await stream(t.app, admin);
    const next = adminStream.next('payment.claimed');
    await t.deps.db
      .transaction(async (tx) => {
        await announce(tx, { type: 'payment.claimed', payment_id: 999_001, status: 'claimed' });
        throw new Error('roll back');
      })
      .catch(() => {});
    await t.deps.db.transaction((tx) => announce(tx, { type: 'payment.claimed', payment_id: 999_002, status: 'claimed' }));
    expect((await next).data.payment_id).toBe(999_002);
  });

  it('delivers from every API process on one PostgreSQL', async (ctx) => {
    if (t.deps.database.kind !== 'postgres') {
      // The embedded PGlite database belongs to one process: there is no second process to hear it.
      ctx.skip();
    }
    const second = await openDatabase({ url: t.deps.database.url });
    const other = await buildApp({ ...t.deps, database: second, db: second.db }, { serveWeb: false });
    await other.ready();
    try {
      const here = await stream(t.app, admin);
      const there = await stream(other, admin);
      const hereGot = here.next('payment.received');
      const thereGot = there.next('payment.received');
      const body = c2b({ BillRefNumber: 'TWOPROC', MSISDN: '2547 ***** 777', TransAmount: '321.50' });
      expect((await confirm(t, body)).statusCode).toBe(200);
      expect((await hereGot).data).toMatchObject({ amount: 321.5, account: 'TWOPROC' });
      expect((await thereGot).data).toMatchObject({ amount: 321.5, account: 'TWOPROC' });
    } finally {
      await other.close();
      await second.close();
    }
  });
});

describe('who sees what', () => {
  const bet = { event: { type: 'bet.opened' as const, bet_id: 1, client_id: 2 }, staffUserId: 7 };
  const payment = { event: { type: 'payment.received' as const, payment_id: 1, amount: 5, sender_name: null, account: null, status: 'unclaimed' }, staffUserId: null };
  it('admins see everything', () => {
    expect(visibleTo({ role: 'admin', userId: 1 }, bet)).toBe(true);
    expect(visibleTo({ role: 'admin', userId: 1 }, payment)).toBe(true);
  });
  it("staff see their own clients' bets only, never payments", () => {
    expect(visibleTo({ role: 'staff', userId: 7 }, bet)).toBe(true);
    expect(visibleTo({ role: 'staff', userId: 8 }, bet)).toBe(false);
    expect(visibleTo({ role: 'staff', userId: 7 }, payment)).toBe(false);
  });
});
