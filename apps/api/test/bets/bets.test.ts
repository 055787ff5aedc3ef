import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, bonuses } from '../../src/db/schema/index.ts';
import { bonusCents } from '../../src/modules/bets/service.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;
let mine: number;
let lapsed: number;
let theirs: number;

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
  mine = await addClient(t.deps.db, { name: 'Brian Mwangi', maximumStakeCents: 500_000, staffId: p.staffId });
  lapsed = await addClient(t.deps.db, { name: 'Mary Njeri', active: false, staffId: p.staffId });
  theirs = await addClient(t.deps.db, { name: 'Kevin Otieno', staffId: p.otherStaffId });
});
afterAll(() => t.close());

const openBet = (token: string | null, payload: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/bets/save', payload });
const enterProfit = (token: string | null, payload: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/bets/update', payload });

describe('POST /api/bets/save', () => {
  it('opens a bet for an active client of mine', async () => {
    const res = await openBet(p.staff, { client_id: mine, name: 'Brian Mwangi', stake: 1500, description: 'Arsenal v Chelsea, over 2.5' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toBe('Bet opened successfully');
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'bet.open'));
    expect(audits).toHaveLength(1);
  });

  it('refuses a stake above the client maximum', async () => {
    const res = await openBet(p.staff, { client_id: mine, stake: 5000.01, description: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.stake[0]).toMatch(/maximum stake of/);
  });

  it.each([
    ['a zero stake', 0],
    ['a negative stake', -100],
    ['an oversized stake', 1e12],
    ['a stake that is not a number', 'lots'],
    ['a stake with three decimals', 10.005],
  ])('refuses %s on stake', async (_what, stake) => {
    const res = await openBet(p.admin, { client_id: mine, stake, description: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.stake).toBeDefined();
  });

  it('refuses a missing description and a missing stake', async () => {
    const res = await openBet(p.admin, { client_id: mine });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['description', 'stake']);
  });

  it('refuses a client without a running subscription', async () => {
    const res = await openBet(p.staff, { client_id: lapsed, stake: 100, description: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.client_id).toBeDefined();
  });

  it("answers 404 for someone else's client and an unknown client, 401 without a session", async () => {
    expect((await openBet(p.staff, { client_id: theirs, stake: 100, description: 'x' })).statusCode).toBe(404);
    expect((await openBet(p.admin, { client_id: 999999, stake: 100, description: 'x' })).statusCode).toBe(404);
    expect((await openBet(null, { client_id: mine, stake: 100, description: 'x' })).statusCode).toBe(401);
  });
});

describe('POST /api/bets/update (Enter Profit)', () => {
  async function newBet(clientId: number, stake = 1000): Promise<number> {
    const res = await openBet(p.admin, { client_id: clientId, stake, description: 'Gor Mahia to win' });
    return res.json().bet_id;
  }

  it('closes a winning bet and creates a pending bonus at 30 % of the profit', async () => {
    const betId = await newBet(mine);
    const res = await enterProfit(p.staff, { bet_id: betId, name: 'Brian Mwangi', stake: 1000, profit: 2000.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ info: 'Profit saved successfully', bonus: 600.15 });
    const [bonus] = await t.deps.db.select().from(bonuses).where(eq(bonuses.betId, betId));
    expect(bonus).toMatchObject({ amountCents: 60_015, ratePercent: 30, clientId: mine });
  });

  it('keeps the bonus in cents, a half cent rounded up: profit 1,000.05 at 30 % owes 300.02', () => {
    expect(bonusCents(100_005, 30)).toBe(30_002);
    expect(bonusCents(100_100, 30)).toBe(30_030);
    expect(bonusCents(-50_000, 30)).toBe(0);
  });

  it('closes a lost bet without a bonus', async () => {
    const betId = await newBet(mine);
    const res = await enterProfit(p.admin, { bet_id: betId, profit: -1000 });
    expect(res.json().bonus).toBe(0);
    expect(await t.deps.db.select().from(bonuses).where(eq(bonuses.betId, betId))).toHaveLength(0);
  });

  it('refuses a loss larger than the stake', async () => {
    const betId = await newBet(mine);
    const res = await enterProfit(p.admin, { bet_id: betId, profit: -1000.01 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.profit).toEqual(['A loss cannot be more than the stake']);
  });

  it('refuses profit entered twice', async () => {
    const betId = await newBet(mine);
    expect((await enterProfit(p.admin, { bet_id: betId, profit: 100 })).statusCode).toBe(200);
    const again = await enterProfit(p.admin, { bet_id: betId, profit: 100 });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.profit).toEqual(['The profit of this bet has already been entered']);
  });

  it("answers 404 for someone else's bet and an unknown bet; 422 for a missing profit", async () => {
    const betId = await newBet(theirs);
    expect((await enterProfit(p.staff, { bet_id: betId, profit: 10 })).statusCode).toBe(404);
    expect((await enterProfit(p.admin, { bet_id: 999999, profit: 10 })).statusCode).toBe(404);
    const res = await enterProfit(p.admin, { bet_id: betId });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.profit).toBeDefined();
  });

  it('refuses a blank profit instead of saving it as 0, and leaves the bet open', async () => {
    const betId = await newBet(mine);
    for (const profit of ['', '  ', null]) {
      const res = await enterProfit(p.admin, { bet_id: betId, profit });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.profit).toEqual(['The profit is required']);
    }
    const { rows } = await t.deps.database.executeSql('select status from bets where id = $1', [betId]);
    expect(rows[0]?.status).toBe('open');
  });
});

describe('bet lists', () => {
  it('lists open bets with admin-only totals', async () => {
    const admin = (await t.as(p.admin, { method: 'GET', url: '/api/bets/open' })).json();
    expect(Object.keys(admin).sort()).toEqual(['bets', 'total_closed_bets', 'total_open_bets', 'total_records']);
    expect(Object.keys(admin.bets[0]).sort()).toEqual(
      ['bet_id', 'bonus', 'client_id', 'closed_on', 'description', 'name', 'opened_on', 'phone', 'photo', 'profit', 'stake', 'status'].sort(),
    );
    const staff = (await t.as(p.staff, { method: 'GET', url: '/api/bets/open' })).json();
    expect(Object.keys(staff).sort()).toEqual(['bets', 'total_records']);
    expect(staff.bets.every((b: { client_id: number }) => b.client_id === mine)).toBe(true);
  });

  it('pages and searches closed bets', async () => {
    const all = (await t.as(p.admin, { method: 'GET', url: '/api/bets/closed?page=1&perPage=50' })).json();
    expect(all.total_records).toBe(3);
    expect(all.bets.every((b: { status: string }) => b.status === 'closed')).toBe(true);
    const found = (await t.as(p.admin, { method: 'GET', url: '/api/bets/closed/search?search=Brian' })).json();
    expect(found.total_records).toBe(3);
    const none = (await t.as(p.admin, { method: 'GET', url: `/api/bets/closed/search?search=${encodeURIComponent('"; select 1; --')}` })).json();
    expect(none.total_records).toBe(0);
    const theirsForStaff = (await t.as(p.otherStaff, { method: 'GET', url: '/api/bets/closed' })).json();
    expect(theirsForStaff.total_records).toBe(0);
    expect(theirsForStaff.total_open_bets).toBeUndefined();
  });

  it('searches closed bets by what was bet on, as well as by client name or phone', async () => {
    const found = (await t.as(p.admin, { method: 'GET', url: '/api/bets/closed/search?search=gor%20mahia' })).json();
    expect(found.total_records).toBe(3);
    expect(found.bets.every((b: { description: string }) => b.description === 'Gor Mahia to win')).toBe(true);
    // The open bet on Chelsea is not a closed bet.
    expect((await t.as(p.admin, { method: 'GET', url: '/api/bets/closed/search?search=Chelsea' })).json().total_records).toBe(0);
  });

  it('exports closed bets as CSV', async () => {
    const res = await t.as(p.admin, { method: 'GET', url: '/api/bets/closed/export' });
    expect(res.statusCode).toBe(200);
    expect(res.body.trim().split('\r\n')).toHaveLength(4);
  });
});

describe('a search counts each matching bet once', () => {
  it('whether it matches by the client, by what was bet on, or by both, within the scope', async () => {
    const kamau = await addClient(t.deps.db, { name: 'Peter Kamau', staffId: p.staffId });
    const achieng = await addClient(t.deps.db, { name: 'Ann Achieng', staffId: p.otherStaffId });
    const bet = async (client: number, description: string, close: boolean) => {
      const opened = await openBet(p.admin, { client_id: client, stake: 100, description });
      expect(opened.statusCode).toBe(200);
      if (close) expect((await enterProfit(p.admin, { bet_id: opened.json().bet_id, profit: 50 })).statusCode).toBe(200);
    };
    await bet(kamau, 'Kamau special: Gor Mahia', true); // the client and the text
    await bet(kamau, 'Arsenal draw', true); // the client only
    await bet(achieng, 'Kamau tip: AFC Leopards', true); // the text only
    await bet(kamau, 'Kamau again', false); // open

    const search = async (token: string, list: 'open' | 'closed') => {
      const answer = (await t.as(token, { method: 'GET', url: list === 'open' ? '/api/bets/open?search=kamau' : '/api/bets/closed/search?search=kamau' })).json();
      const ids = answer.bets.map((b: { bet_id: number }) => b.bet_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(answer.total_records).toBe(ids.length);
      return ids.length;
    };
    expect(await search(p.admin, 'closed')).toBe(3);
    expect(await search(p.staff, 'closed')).toBe(2);
    expect(await search(p.otherStaff, 'closed')).toBe(1);
    expect(await search(p.admin, 'open')).toBe(1);
    expect(await search(p.otherStaff, 'open')).toBe(0);
  });
});

describe("a client's open bets on their page (GET /api/clients/bets?status=open)", () => {
  it('lists only the bets still waiting for their profit, and a closed one leaves the list', async () => {
    const client = await addClient(t.deps.db, { name: 'Open Page Client', staffId: p.staffId });
    for (const description of ['Gor Mahia v AFC, home win', 'Tusker v Ulinzi, BTTS']) {
      expect((await openBet(p.staff, { client_id: client, name: 'Open Page Client', stake: 100, description })).statusCode).toBe(200);
    }
    const list = async (status?: string) =>
      (await t.as(p.staff, { method: 'GET', url: `/api/clients/bets?client_id=${client}${status ? `&status=${status}` : ''}` })).json() as {
        total_records: number;
        list: { bet_id: number; description: string; status: string }[];
      };
    const open = await list('open');
    expect(open.total_records).toBe(2);
    expect(open.list.every((b) => b.status === 'open')).toBe(true);
    const first = open.list[0]!;
    expect((await enterProfit(p.staff, { bet_id: first.bet_id, name: 'Open Page Client', stake: 100, profit: -100 })).statusCode).toBe(200);
    expect((await list('open')).list.map((b) => b.bet_id)).toEqual(open.list.slice(1).map((b) => b.bet_id));
    expect((await list('closed')).list.map((b) => b.bet_id)).toEqual([first.bet_id]);
    expect((await list()).total_records).toBe(2);
  });

  it('names the status when it is neither open nor closed, and keeps staff to their own clients', async () => {
    const bad = await t.as(p.staff, { method: 'GET', url: `/api/clients/bets?client_id=${mine}&status=won` });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['status']);
    expect((await t.as(p.staff, { method: 'GET', url: `/api/clients/bets?client_id=${theirs}&status=open` })).statusCode).toBe(404);
  });
});
