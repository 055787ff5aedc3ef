import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as contract from '@betdesk/contract';
import {
  auditLog,
  buyerTaxIdentities,
  bets,
  bonusPayments,
  bonuses,
  clients,
  ledgerEntries,
  mpesaPayments,
  phoneLanguages,
  smsMessages,
  stkRequests,
  subscriptions,
} from '../../src/db/schema/index.ts';
import { rows } from '../../src/db/rows.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import type { TestApp } from '../helpers.ts';
import { appWithFakeDaraja, SANDBOX_PASSKEY } from '../mpesa/fixtures.ts';
import { addClient, isEndpoint, people, staffMay } from './fixtures.ts';

/**
 * Staff scope over the writes (issue 32, item 2): every write route a staff member may call is
 * either listed here as acting on a Bet4Me client's rows, with the request that does it, or listed
 * as acting on none, with the reason. For each client-owned write, staff A's request for staff B's
 * client (or B's bet) is refused as a client of someone else (404) and changes nothing, while the
 * same request for A's own client goes through (so the refusal is the scope's, not the form's).
 */

const staffWrites = (Object.values(contract) as unknown[])
  .filter(isEndpoint)
  .filter((e) => e.method !== 'GET' && staffMay(e))
  .map((e) => `${e.method} ${e.path}`)
  .sort();

interface World {
  clientId: number;
  /** Open bets of the client, one for each write that closes or edits one. */
  openBets: number[];
}

/** The request each client-owned write makes for the client (or the client's bet) of `w`. */
const CLIENT_OWNED_WRITES: Record<string, (w: World) => Record<string, unknown>> = {
  'POST /api/bets/save': (w) => ({ client_id: w.clientId, stake: 100, description: 'Placed across the scope' }),
  'POST /api/bets/update': (w) => ({ bet_id: w.openBets[0], profit: 500 }),
  'POST /api/clients/language': (w) => ({ client_id: w.clientId, language: 'sw' }),
  'POST /api/messages': (w) => ({ id: w.clientId, message: 'A message across the scope' }),
  'POST /api/payment-requests/store': (w) => ({ client_id: w.clientId, item: 'bonus', phone: '0700000009' }),
  // The client's KRA PIN (decision 074): the client is the path's :id.
  'PUT /api/clients/:id/tax-identity': () => ({ pin: 'P051234567X', name: 'Across The Scope Ltd' }),
};

/** A write's method and URL for the client of `w` (a path's :id is the client). */
const requestOf = (key: string, w: World) => {
  const [method, path] = key.split(' ') as ['POST' | 'PUT', string];
  return { method, url: path.replace(':id', String(w.clientId)) };
};

/** Staff-callable writes that touch no Bet4Me client's rows, and why. */
const NOT_CLIENT_OWNED_WRITES: Record<string, string> = {
  'POST /api/auth/logout': "the caller's own session",
  'POST /api/auth/me': "the caller's own account",
  'POST /api/auth/refresh': "the caller's own session",
  'POST /api/auth/save-password': "the caller's own password",
  'POST /api/auth/devices/end': "the caller's own sessions",
  'POST /api/auth/2fa/setup': "the caller's own second factor",
  'POST /api/auth/2fa/enable': "the caller's own second factor",
  'POST /api/auth/2fa/disable': "the caller's own second factor",
  'POST /api/privacy/consent': 'tips subscribers, whom every staff member serves',
  'POST /api/exclusions': "a person by phone, at their own request: any staff member records it, and it only protects them (decision 059)",
  'POST /api/exclusions/under-18': 'a person by phone: the mark only blocks sales to them (decision 059)',
  'POST /api/sms/estimate': 'a cost estimate of a text: writes nothing',
  'POST /api/tips/subscribers/store': 'tips subscribers',
  'POST /api/tips/subscribers/send-sms': 'tips subscribers',
  'POST /api/tips/subscribers/language': 'tips subscribers',
  'PUT /api/tips/subscribers/:id/tax-identity': "tips subscribers' KRA PINs",
  'POST /api/tips/subscribers/auto-renewals/stop': "tips subscribers' standing orders",
  'POST /api/tips/posts/add': 'tips content',
  'POST /api/tips/posts/update': 'tips content',
  'POST /api/tips/posts/delete': 'tips content',
  'POST /api/tips/posts/update-sms-tips': 'tips content',
  'POST /api/tips/posts/update-sms-tips/estimate': 'tips content',
  'POST /api/tips/tickets/store': 'tips content',
  'POST /api/tips/tickets/results': 'tips content',
  'POST /api/tips/winnings/update': 'the winnings page',
  // Its :id is a tax document, not a client: the scope is printing's (staffMayRead), and staff A's
  // request for staff B's client's invoice is refused (404, nothing sent) in test/tax/invoice-document.test.ts.
  'POST /api/tax/invoices/:id/send-link': "a tax document's link by SMS, within the documents the caller may print (decision 087)",
};

let t: TestApp;
let fake: FakeDaraja;
let p: Awaited<ReturnType<typeof people>>;
let a: World;
let b: World;

/** A staff member's client with a running plan, open bets and a won bet whose bonus is part paid. */
async function clientWithHistory(staffId: number, name: string): Promise<World> {
  const clientId = await addClient(t.deps.db, { name, staffId });
  const openBets: number[] = [];
  for (const n of [1, 2]) {
    const open = await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: `${name} open ${n}` } });
    expect(open.statusCode).toBe(200);
    openBets.push(open.json().bet_id);
  }
  const won = await t.as(p.admin, { method: 'POST', url: '/api/bets/save', payload: { client_id: clientId, stake: 100, description: `${name} won` } });
  await t.as(p.admin, { method: 'POST', url: '/api/bets/update', payload: { bet_id: won.json().bet_id, profit: 1000 } });
  const paid = await t.as(p.admin, { method: 'POST', url: '/api/bonuses/pay', payload: { client_id: clientId, amount: 1, description: 'part' } });
  expect(paid.statusCode).toBe(200);
  return { clientId, openBets };
}

/** Every row of the tables a write of a client could touch, as text: equal text, nothing changed. */
async function everything(): Promise<string[]> {
  const tables = [clients, bets, bonuses, bonusPayments, subscriptions, mpesaPayments, stkRequests, smsMessages, ledgerEntries, phoneLanguages, auditLog, buyerTaxIdentities];
  return Promise.all(
    tables.map(async (table) => {
      const [row] = await rows<{ all: string }>(t.deps.db, sql`select coalesce(json_agg(r order by r::text), '[]')::text as "all" from ${table} r`);
      return row!.all;
    }),
  );
}

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  p = await people(t);
  a = await clientWithHistory(p.staffId, 'Amani Writealpha');
  b = await clientWithHistory(p.otherStaffId, 'Baraka Writebeta');
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('staff scope over the writes of the contract', () => {
  it('classifies every write route a staff member may call as acting on client-owned rows or not', () => {
    const classified = new Set([...Object.keys(CLIENT_OWNED_WRITES), ...Object.keys(NOT_CLIENT_OWNED_WRITES)]);
    expect(staffWrites.filter((key) => !classified.has(key))).toEqual([]);
    expect([...classified].filter((key) => !staffWrites.includes(key))).toEqual([]);
    expect(Object.keys(CLIENT_OWNED_WRITES).filter((key) => key in NOT_CLIENT_OWNED_WRITES)).toEqual([]);
  });

  it.each(Object.entries(CLIENT_OWNED_WRITES))("%s: refused for the other staff member's client, changing nothing", async (key, payloadOf) => {
    for (const [token, other] of [[p.staff, b], [p.otherStaff, a]] as const) {
      const before = await everything();
      const theirs = await t.as(token, { ...requestOf(key, other), payload: payloadOf(other) });
      expect(theirs.statusCode, theirs.body).toBe(404);
      expect(await everything()).toEqual(before);
    }
  });

  it.each(Object.entries(CLIENT_OWNED_WRITES))('%s: goes through for the staff member\'s own client', async (key, payloadOf) => {
    fake.outcomes.push({ resultCode: 0, callback: false });
    const before = await everything();
    const own = await t.as(p.staff, { ...requestOf(key, a), payload: payloadOf(a) });
    expect(own.statusCode, own.body).toBe(200);
    expect(await everything()).not.toEqual(before);
  });
});
