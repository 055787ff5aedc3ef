import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as contract from '@betdesk/contract';
import { mpesaPayments, stkRequests } from '../../src/db/schema/index.ts';
import { rows } from '../../src/db/rows.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, isEndpoint, people, staffMay } from './fixtures.ts';

/**
 * Staff scope across the whole contract: every GET route a staff member may call is either listed
 * here as returning Bet4Me clients' rows (and then staff B is shown to see none of staff A's), or
 * listed as returning none, with the reason. A new route that is in neither list fails the first
 * test, so it is covered without anyone remembering it.
 */

const staffGets = (Object.values(contract) as unknown[])
  .filter(isEndpoint)
  .filter((e) => e.method === 'GET' && staffMay(e))
  .map((e) => `${e.method} ${e.path}`)
  .sort();

/**
 * Routes that return client-owned rows, with the query that asks for them: `{client}` is the
 * caller's own client (or the other staff member's, to be refused), `{request}` a payment request
 * to that client. A list names the clients it shows; a route of one client answers 404 for the other's.
 */
const CLIENT_OWNED: Record<string, string> = {
  'GET /api/clients': '',
  'GET /api/clients/search': 'search=Scope',
  'GET /api/clients/active': '',
  'GET /api/clients/export': '',
  'GET /api/clients/active/export': '',
  'GET /api/clients/show': 'client_id={client}',
  'GET /api/clients/subscriptions': 'client_id={client}',
  'GET /api/clients/subscriptions/export': 'client_id={client}',
  'GET /api/clients/bets': 'client_id={client}',
  'GET /api/clients/bets/export': 'client_id={client}',
  'GET /api/clients/bonuses': 'client_id={client}',
  'GET /api/clients/bonuses/export': 'client_id={client}',
  'GET /api/clients/paid-bonuses': 'client_id={client}',
  'GET /api/clients/paid-bonuses/export': 'client_id={client}',
  'GET /api/bets/open': '',
  'GET /api/bets/open/export': '',
  'GET /api/bets/closed': '',
  'GET /api/bets/closed/search': 'search=Scope',
  'GET /api/bets/closed/export': '',
  'GET /api/bonuses': '',
  'GET /api/bonuses/search': 'search=Scope',
  'GET /api/bonuses/export': '',
  'GET /api/bonuses/unpaid': '',
  'GET /api/bonuses/unpaid/export': '',
  'GET /api/bonuses/paid': '',
  'GET /api/bonuses/paid/export': '',
  'GET /api/dashboard': '',
  'GET /api/search': 'q=Scope',
  'GET /api/sms/opt-out/client': 'client_id={client}',
  'GET /api/sms/client-messages': 'client_id={client}',
  'GET /api/payment-requests/options': 'client_id={client}',
  'GET /api/payment-requests/show': 'request_id={request}',
  // A route of one client by its path (`:id` is the caller's own client, or the other's, to be refused).
  'GET /api/clients/:id/tax-identity': '',
};

/** Staff-visible GET routes that return no Bet4Me client's rows, and why. */
const NOT_CLIENT_OWNED: Record<string, string> = {
  'GET /api/auth/devices': "the caller's own sessions",
  'GET /api/auth/2fa': "the caller's own second factor",
  'GET /api/events': 'live notices that a list changed, no rows (and the stream never ends)',
  'GET /api/privacy/consent': 'tips subscribers, whom every staff member serves',
  'GET /api/sms/opt-out/subscriber': 'tips subscribers',
  'GET /api/sms/subscriber-messages': 'tips subscribers',
  'GET /api/tips/subscribers/active': 'tips subscribers',
  'GET /api/tips/subscribers/auto-renewals': "tips subscribers' standing orders",
  'GET /api/tips/subscribers/new': 'tips subscribers (the form)',
  'GET /api/tips/subscribers/show': 'tips subscribers',
  'GET /api/tips/subscriptions/active': 'tips subscriptions',
  'GET /api/tips/posts/add': 'tips content',
  'GET /api/tips/posts/all': 'tips content',
  'GET /api/tips/posts/edit': 'tips content',
  'GET /api/tips/posts/view': 'tips content',
  'GET /api/tips/posts/view-sms-tips': 'tips content',
  'GET /api/tips/posts/update-sms-tips': 'tips content',
  'GET /api/tips/tickets': 'tips content',
  'GET /api/tips/tickets/awaiting-results': 'tips content',
  'GET /api/tips/tickets/proposed-results': "tips content (the feed's proposed results)",
  'GET /api/feed/fixtures': "the sports feed's fixtures",
  'GET /api/feed/state': "the sports feed's quota and state",
  'GET /api/tips/record': 'the tips track record',
  'GET /api/tips/record/export': 'the tips track record',
  'GET /api/tips/winnings/update': 'the winnings page',
  'GET /api/tips/subscribers/:id/tax-identity': "a tips subscriber's KRA PIN and invoices",
  'GET /api/tax/invoices/:id/document':
    "one invoice's PDF, by its id: a client's invoice only when the client is in the caller's scope (test/tax/invoice-document.test.ts)",
};

interface World {
  token: string;
  clientId: number;
  requestId: number;
  /** Appears in every list row of this staff member's client (its surname). */
  marker: string;
}

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let a: World;
let b: World;
let receipts = 0;

/** A client of the staff member with a running plan, an open bet, a won bet half paid, an M-Pesa payment and a payment request. */
async function clientWithHistory(staffId: number, token: string, name: string): Promise<World> {
  const clientId = await addClient(t.deps.db, { name, staffId });
  const open = await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: `${name} open` } });
  expect(open.statusCode).toBe(200);
  const won = await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: `${name} won` } });
  await t.as(p.admin, { method: 'POST', url: '/api/bets/update', payload: { bet_id: won.json().bet_id, profit: 1000 } });
  const paid = await t.as(p.admin, { method: 'POST', url: '/api/bonuses/pay', payload: { client_id: clientId, amount: 1, description: 'part' } });
  expect(paid.statusCode).toBe(200);
  receipts += 1;
  await t.deps.db.insert(mpesaPayments).values({
    transId: `SCOPE${receipts}XYZ`,
    source: 'c2b',
    raw: {},
    status: 'claimed',
    amountCents: 50_000,
    senderName: 'SENDER',
    clientId,
    matchedBy: 'manual',
  });
  const [request] = await t.deps.db
    .insert(stkRequests)
    .values({ purpose: 'bonus', clientId, phone: '254700000001', amountCents: 100, accountReference: `B4M${clientId}` })
    .returning({ id: stkRequests.id });
  return { token, clientId, requestId: request!.id, marker: name.split(' ')[1]! };
}

const urlOf = (key: string, query: string, w: World) =>
  `${key.slice(4).replace(':id', String(w.clientId))}?${query.replace('{client}', String(w.clientId)).replace('{request}', String(w.requestId))}`;
/** A route of one client (by its query or its path) answers 404 for the other staff member's. */
const ofOneClient = (key: string, query: string) => query.includes('{') || key.includes(':id');

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  a = await clientWithHistory(p.staffId, p.staff, 'Amani Scopealpha');
  b = await clientWithHistory(p.otherStaffId, p.otherStaff, 'Baraka Scopebeta');
});
afterAll(() => t.close());

describe('staff scope over every route of the contract', () => {
  it('classifies every GET route a staff member may call as returning client-owned rows or not', () => {
    const classified = new Set([...Object.keys(CLIENT_OWNED), ...Object.keys(NOT_CLIENT_OWNED)]);
    expect(staffGets.filter((key) => !classified.has(key))).toEqual([]);
    expect([...classified].filter((key) => !staffGets.includes(key))).toEqual([]);
    expect(Object.keys(CLIENT_OWNED).filter((key) => key in NOT_CLIENT_OWNED)).toEqual([]);
  });

  it.each(Object.entries(CLIENT_OWNED))('%s: each staff member sees their own rows and none of the other\'s', async (key, query) => {
    for (const [me, other] of [[a, b], [b, a]] as const) {
      const own = await t.as(me.token, { method: 'GET', url: urlOf(key, query, me) });
      expect(own.statusCode, own.body).toBe(200);
      if (!ofOneClient(key, query)) expect(own.body).toContain(me.marker);
      expect(own.body).not.toContain(other.marker);
      if (ofOneClient(key, query)) {
        const theirs = await t.as(me.token, { method: 'GET', url: urlOf(key, query, other) });
        expect(theirs.statusCode).toBe(404);
        expect(theirs.body).not.toContain(other.marker);
      }
    }
  });

  it('gives an admin both staff members\' rows on the same lists', async () => {
    for (const key of ['GET /api/clients', 'GET /api/bets/open', 'GET /api/bonuses/unpaid', 'GET /api/bonuses/paid', 'GET /api/dashboard']) {
      const body = (await t.as(p.admin, { method: 'GET', url: urlOf(key, '', a) })).body;
      expect(body).toContain(a.marker);
      expect(body).toContain(b.marker);
    }
  });
});

describe('reassigning a client', () => {
  const figures = async (token: string) => {
    const d = (await t.as(token, { method: 'GET', url: '/api/dashboard' })).json();
    return { active: d.total_active_clients, open: d.total_open_bets, pending: d.total_pending_bonus, payments: d.recent_payments.length };
  };
  const lists = async (token: string) => {
    const bodies = await Promise.all(
      ['/api/clients', '/api/clients/active', '/api/bets/open', '/api/bets/closed', '/api/bonuses', '/api/bonuses/unpaid', '/api/bonuses/paid', '/api/dashboard'].map(
        async (url) => (await t.as(token, { method: 'GET', url })).body,
      ),
    );
    return bodies.map((body) => [body.includes(a.marker), body.includes(b.marker)]);
  };
  /** Rows whose owner column disagrees with the client's assignment: none, whatever happened. */
  const stale = async () => {
    const [row] = await rows<{ n: number }>(t.deps.db, sql`
      select (select count(*) from clients c left join client_assignments x on x.client_id = c.id where c.assigned_user_id is distinct from x.user_id)
           + (select count(*) from bets r left join client_assignments x on x.client_id = r.client_id where r.assigned_user_id is distinct from x.user_id)
           + (select count(*) from bonuses r left join client_assignments x on x.client_id = r.client_id where r.assigned_user_id is distinct from x.user_id)
           + (select count(*) from bonus_payments r left join client_assignments x on x.client_id = r.client_id where r.assigned_user_id is distinct from x.user_id)
           + (select count(*) from subscriptions r left join client_assignments x on x.client_id = r.client_id where r.client_id is not null and r.assigned_user_id is distinct from x.user_id)
           + (select count(*) from mpesa_payments r left join client_assignments x on x.client_id = r.client_id where r.client_id is not null and r.assigned_user_id is distinct from x.user_id)
           as n`);
    return Number(row!.n);
  };

  it("moves the client's lists, totals and dashboard to the new staff member at once, and away on unassigning", async () => {
    expect(await figures(p.staff)).toEqual({ active: 1, open: 1, pending: 1, payments: 1 });
    expect(await figures(p.otherStaff)).toEqual({ active: 1, open: 1, pending: 1, payments: 1 });
    expect(await stale()).toBe(0);

    const moved = await t.as(p.admin, { method: 'POST', url: '/api/users/save-clients', payload: { user_id: p.otherStaffId, client_ids: [a.clientId] } });
    expect(moved.statusCode).toBe(200);
    expect(await figures(p.staff)).toEqual({ active: 0, open: 0, pending: 0, payments: 0 });
    expect(await figures(p.otherStaff)).toEqual({ active: 2, open: 2, pending: 2, payments: 2 });
    expect(await lists(p.staff)).toEqual(Array(8).fill([false, false]));
    expect(await lists(p.otherStaff)).toEqual(Array(8).fill([true, true]));
    expect((await t.as(p.staff, { method: 'GET', url: `/api/clients/show?client_id=${a.clientId}` })).statusCode).toBe(404);
    expect(await stale()).toBe(0);

    // A bet opened for the moved client afterwards is the new owner's too.
    await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: a.clientId, stake: 100, description: 'after the move' } });
    expect((await figures(p.otherStaff)).open).toBe(3);

    const dropped = await t.as(p.admin, { method: 'POST', url: '/api/users/drop-client', payload: { user_id: p.otherStaffId, client_id: a.clientId } });
    expect(dropped.statusCode).toBe(200);
    expect(await figures(p.otherStaff)).toEqual({ active: 1, open: 1, pending: 1, payments: 1 });
    expect(await lists(p.otherStaff)).toEqual(Array(8).fill([false, true]));
    expect(await stale()).toBe(0);
  });
});
