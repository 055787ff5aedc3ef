import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { nairobiDayOf, presetRange } from '@betdesk/contract';
import { phoneLanguages } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp, signInToPortal } from '../helpers.ts';
import { signedInStaff, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';
import { playedTicket } from '../tips-record/played.ts';

/*
 * Issue 31, part 3: a portal a punter can trust. The pages in the reader's language, the 18+ and
 * responsible-gambling line on every page, the trust pages from settings, how to pay, packages by
 * category, and the public record tip by tip.
 */

let t: TestApp;
let ref: TipsReference;
let admin: string;
let settledId: number;
let olderId: number;
let notKickedOffId: number;

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const form = (url: string, fields: Record<string, string>, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
const setSetting = async (key: string, value: string) => {
  const res = await t.as(admin, { method: 'POST', url: '/api/settings/update', payload: { key, value } });
  return res;
};

let ipSeq = 0;
const signIn = (local: string): Promise<string> => signInToPortal(t, local, `10.31.0.${++ipSeq}`);

beforeAll(async () => {
  t = await createTestApp();
  ref = await tipsReference(t.deps.db);
  const staff = await signedInStaff(t);
  admin = staff.admin;
  const today = nairobiDayOf(new Date());
  const older = presetRange('last-month').from;
  olderId = (await playedTicket(t, staff.staff, { betCategoryId: ref.d2, matchDate: older, legs: [{ home: 'Roma', away: 'Lecce', odds: 1.5 }], results: ['lost'] })).id;
  settledId = (
    await playedTicket(t, staff.staff, {
      betCategoryId: ref.d2,
      matchDate: today,
      legs: [{ home: 'Arsenal', away: 'Chelsea', odds: 2 }, { home: 'Milan', away: 'Inter', odds: 1.5 }],
      results: ['won', 'won'],
    })
  ).id;
  // A ticket whose legs all have results but one of which is (now) to kick off later, a match
  // moved: its pick stays hidden until that leg kicks off.
  notKickedOffId = (
    await playedTicket(t, staff.staff, { betCategoryId: ref.o15, matchDate: today, legs: [{ home: 'Lyon', away: 'Nice', odds: 1.4 }, { home: 'Lens', away: 'Lille', odds: 1.3 }], results: ['won', 'won'] })
  ).id;
  await t.deps.db.execute(sql`update tip_selections set kickoff_at = now() + interval '3 hours' where ticket_id = ${notKickedOffId} and home = 'Lens'`);
  // A pending ticket: published before kick-off, not played yet.
  const kickoff = new Date(Date.now() + 86_400_000).toISOString();
  const stored = await t.as(staff.staff, {
    method: 'POST',
    url: '/api/tips/tickets/store',
    payload: {
      bet_category_id: ref.d2,
      match_date: nairobiDayOf(new Date(Date.now() + 86_400_000)),
      selections: [{ home: 'Porto', away: 'Braga', competition: 'Liga', kickoff, market: '1X2', pick: 'X', odds: 3.1 }],
    },
  });
  expect(stored.statusCode).toBe(200);
});
afterAll(() => t.close());

describe('GET /api/portal/record: the public record tip by tip', () => {
  it('lists settled tickets newest first, never a pending one or one with a leg still to kick off', async () => {
    const res = await get('/api/portal/record');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total_records).toBe(2);
    expect(body.tickets.map((x: { id: number }) => x.id)).toEqual([settledId, olderId]);
    expect(body.tickets[0]).toMatchObject({
      code: 'D2',
      status: 'won',
      combined_odds: 3,
      profit_units: 2,
      selections: [
        { home: 'Arsenal', away: 'Chelsea', market: '1X2', pick: '1', odds: 2, result: 'won' },
        { home: 'Milan', away: 'Inter', result: 'won' },
      ],
    });
    expect(JSON.stringify(body)).not.toContain('Porto');
    expect(JSON.stringify(body)).not.toContain('Lens');
    // The totals are the record's: the pending ticket counts as pending there.
    expect(body.totals).toMatchObject({ bet_category: 'All categories', code: null, pending: 1 });
  });

  it('pages, filters by category and period, and refuses bad input naming the field', async () => {
    const second = (await get(`/api/portal/record?bet_category_id=${ref.d2}&page=2&perPage=1`)).json();
    expect(second).toMatchObject({ total_records: 2, tickets: [{ id: olderId, status: 'lost', profit_units: -1 }] });
    expect(second.totals).toMatchObject({ bet_category: 'Daily 2 Odds', code: 'D2', settled: 2, won: 1, lost: 1 });
    const beyond = (await get(`/api/portal/record?bet_category_id=${ref.d2}&page=9&perPage=1`)).json();
    expect(beyond).toMatchObject({ total_records: 2, tickets: [] });
    expect((await get(`/api/portal/record?bet_category_id=${ref.o15}`)).json()).toMatchObject({ total_records: 0, tickets: [] });
    expect((await get('/api/portal/record?period=last-month')).json().tickets.map((x: { id: number }) => x.id)).toEqual([olderId]);
    const unknown = await get('/api/portal/record?bet_category_id=99999');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.bet_category_id).toBeDefined();
    const tooMany = await get('/api/portal/record?perPage=500');
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors.perPage).toBeDefined();
    expect((await get('/api/portal/record?period=forever')).json().errors.period).toBeDefined();
  });

  it('shows the tickets on the record page beside the totals, with the chart, the period and the count', async () => {
    const body = (await get('/portal/record?category=D2')).body;
    expect(body).toContain('Daily 2 Odds (D2): Tickets, newest first');
    expect(body).toMatch(/data-coverage>All time · 2 settled tickets, 1 pending</);
    expect(body).toContain('<strong>Arsenal - Chelsea</strong>');
    expect(body).toContain('Combined odds 3.00: Won, +2.00 units');
    expect(body).toMatch(/<svg class="chart"[^>]*role="img"[^>]*aria-label="Cumulative profit in units: From /);
    expect(body).toContain('<polyline');
    expect(body).not.toContain('Porto');
    expect(body.indexOf('Arsenal')).toBeLessThan(body.indexOf('Roma'));
    const paged = (await get('/portal/record?category=D2&page=2&perPage=1')).body;
    expect(paged).not.toContain('Arsenal - Chelsea');
    expect(paged).toContain('Roma - Lecce');
    expect(paged).toContain('<span>Page 2 of 2</span>');
    expect(paged).toContain('href="/portal/record?period=all&amp;category=D2&amp;perPage=1#tickets">Newer</a>');
  });
});

describe('The portal in the reader\'s language', () => {
  it('switches a visitor to Kiswahili with a plain form, remembered in a cookie', async () => {
    const switched = await form('/portal/language', { language: 'sw', next: '/portal/record?category=D2' });
    expect(switched.statusCode).toBe(303);
    expect(switched.headers.location).toBe('/portal/record?category=D2');
    const cookie = switched.cookies.find((c) => c.name === 'betdesk_lang')!;
    expect(cookie.value).toBe('sw');
    const page = (await get('/portal/record?category=D2', `betdesk_lang=sw`)).body;
    expect(page).toContain('<html lang="sw">');
    expect(page).toContain('Rekodi yetu');
    expect(page).toContain('Tiketi, za karibuni kwanza');
    expect(page).toContain('Odds za jumla 3.00: Imeshinda, uniti +2.00');
    expect(page).toContain('Kubeti ni uraibu. Cheza kwa uwajibikaji. Miaka 18+ pekee');
    expect(page).toContain('lang="en" data-language="en">Read in English</button>');
    // A foreign address is never where the switch sends anyone.
    expect((await form('/portal/language', { language: 'sw', next: 'https://evil.example/' })).headers.location).toBe('/portal');
    expect((await form('/portal/language', { language: 'fr', next: '/portal/help' })).cookies).toHaveLength(0);
  });

  it('renders every public page in Kiswahili', async () => {
    const sw = 'betdesk_lang=sw';
    const pages: [string, string][] = [
      ['/portal', 'Tips za bure za leo'],
      ['/portal/packages', 'Chagua kifurushi na ulipe kwa M-Pesa'],
      [`/portal/packages/${ref.d2SmsWeek}`, 'Pokea tips za aina hii kwa SMS.'],
      ['/portal/help', 'Kusitisha SMS'],
      ['/portal/sign-in', 'Nitumie nambari ya kuingia'],
      ['/portal/terms', 'Masharti'],
      ['/portal/refunds', 'Sera ya kurejesha pesa'],
      ['/portal/privacy', 'Taarifa ya faragha'],
      ['/portal/nowhere', 'Ukurasa huu haupo.'],
    ];
    for (const [url, words] of pages) {
      const res = await get(url, sw);
      expect(res.body, url).toContain('<html lang="sw">');
      expect(res.body, url).toContain(words);
      expect(res.body, url).toContain('aria-label="Watu wazima pekee, miaka 18 na zaidi">18+</span>');
      expect(res.body, url).toContain('href="/portal/privacy">Taarifa ya faragha</a>');
    }
    const english = (await get('/portal/terms')).body;
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Betting is addictive. Play responsibly. 18+ only');
  });

  it("stores a signed-in subscriber's choice once with the phone, and it wins over the cookie", async () => {
    const cookie = await signIn('0711310001');
    const rows = () => t.deps.db.select().from(phoneLanguages).where(eq(phoneLanguages.phone, '254711310001'));
    expect(await rows()).toHaveLength(0);
    expect((await form('/portal/language', { language: 'sw', next: '/portal/account' }, cookie)).statusCode).toBe(303);
    const [first] = await rows();
    expect(first).toMatchObject({ language: 'sw', source: 'portal' });
    await form('/portal/language', { language: 'sw', next: '/portal/account' }, cookie);
    const again = await rows();
    expect(again).toHaveLength(1);
    expect(again[0]!.updatedAt).toEqual(first!.updatedAt);
    // The stored choice wins over an English cookie; /me says the same.
    const account = (await get('/portal/account', `${cookie}; betdesk_lang=en`)).body;
    expect(account).toContain('<html lang="sw">');
    expect(account).toContain('Usajili wangu');
    expect((await get('/api/portal/me', cookie)).json().language).toBe('sw');
  });

  it("serves the business's default language to a visitor without a cookie", async () => {
    expect((await setSetting('customer_language_default', 'sw')).statusCode).toBe(200);
    expect((await get('/portal/help')).body).toContain('<html lang="sw">');
    expect((await get('/portal/help', 'betdesk_lang=en')).body).toContain('<html lang="en">');
    await setSetting('customer_language_default', 'en');
  });
});

describe('Trust on every page', () => {
  it("shows the business's own responsible-gambling wording and its licence line once set", async () => {
    expect((await get('/portal')).body).not.toContain('data-licence');
    expect((await setSetting('portal_licence_line', 'Licensed by BCLB, licence No. 0000123')).statusCode).toBe(200);
    expect((await setSetting('portal_responsible_gambling', 'Bet with your head. 18+ only')).statusCode).toBe(200);
    for (const cookie of ['betdesk_lang=en', 'betdesk_lang=sw']) {
      const body = (await get('/portal/record', cookie)).body;
      expect(body).toContain('<p data-licence>Licensed by BCLB, licence No. 0000123</p>');
      expect(body).toContain('<span>Bet with your head. 18+ only</span>');
    }
    // Emptied, the line goes; the default wording comes back in each language.
    expect((await setSetting('portal_licence_line', '')).statusCode).toBe(200);
    await setSetting('portal_responsible_gambling', 'Betting is addictive. Play responsibly. 18+ only');
    expect((await get('/portal', 'betdesk_lang=sw')).body).not.toContain('data-licence');
    expect((await get('/portal', 'betdesk_lang=sw')).body).toContain('Kubeti ni uraibu.');
  });

  it('fills the privacy notice with the data-protection facts and shows the edited text of each language', async () => {
    const privacy = (await get('/portal/privacy')).body;
    expect(privacy).toContain('<h2>Your rights</h2>');
    expect(privacy).toContain('we answer within 7 days');
    expect(privacy).toContain('The text of an SMS is kept 730 days');
    expect(privacy).toContain('for 5 years, your data is erased automatically');
    expect(privacy).toContain('send STOP, untick the box on My account');
    expect((await get('/portal/privacy', 'betdesk_lang=sw')).body).toContain('tunajibu ndani ya siku 7');
    expect((await setSetting('portal_terms_sw', '# Masharti yetu\nLipa kwa M-Pesa tu. Simu: {support}\n\n- Miaka 18+ <b>pekee</b>')).statusCode).toBe(200);
    const terms = (await get('/portal/terms', 'betdesk_lang=sw')).body;
    expect(terms).toContain('<h2>Masharti yetu</h2><p>Lipa kwa M-Pesa tu. Simu: 0700000000</p><ul><li>Miaka 18+ &lt;b&gt;pekee&lt;/b&gt;</li></ul>');
    expect((await get('/portal/terms')).body).toContain('<h2>Who we are</h2>');
    const wrong = await setSetting('portal_refund_policy', 'Refunds to {name}');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.value[0]).toMatch(/uses \{name\}; only \{business\}/);
    expect((await setSetting('portal_terms', '')).statusCode).toBe(422);
  });

  it('shows the USSD code, the paybill and the account numbers on the home and help pages, packages by category cheapest first', async () => {
    expect((await get('/portal')).body).not.toContain('data-ussd');
    expect((await setSetting('portal_ussd_code', '*384*31#')).statusCode).toBe(200);
    for (const url of ['/portal', '/portal/help']) {
      const body = (await get(url)).body;
      expect(body, url).toContain('Dial *384*31# on any phone');
      expect(body, url).toContain('<li><strong>D2</strong>: Daily 2 Odds</li>');
      expect(body, url).toContain('<li><strong>O15</strong>: Over 1.5 Goals</li>');
      expect(body, url).toMatch(/data-paybill>M-Pesa: Lipa na M-Pesa, Pay Bill/);
    }
    expect((await get('/portal/help', 'betdesk_lang=sw')).body).toContain('Piga *384*31# kwenye simu yoyote');
    const packages = (await get('/portal/packages')).body;
    const d2 = packages.slice(packages.indexOf('data-category="D2"'), packages.indexOf('data-category="O15"'));
    const prices = [...d2.matchAll(/class="price">([^<]+)</g)].map((m) => m[1]);
    expect(prices).toEqual(['KES 400', 'KES 500', 'KES 1,500']);
    expect(packages).toContain('<h2>Daily 2 Odds: account number D2</h2>');
  });
});
