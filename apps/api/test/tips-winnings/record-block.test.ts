import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nairobiDayOf, presetRange, recordBlockMarker } from '@betdesk/contract';
import { type TestApp } from '../helpers.ts';
import { tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';
import { playedTicket } from '../tips-record/played.ts';

let t: TestApp, ref: TipsReference, staff: string;

const save = (content: string) => t.as(staff, { method: 'POST', url: '/api/tips/winnings/update', payload: { content } });
const saved = async () => (await t.as(staff, { method: 'GET', url: '/api/tips/winnings/update' })).json().content as string;
const portalHome = async () => (await t.app.inject({ method: 'GET', url: '/portal' })).body;

const today = nairobiDayOf(new Date());
const lastMonth = presetRange('last-month');

beforeAll(async () => {
  ({ t, ref, staff } = await tipsApp());
  // This month in D2: won at 2.00 and at 1.50, lost at 3.00 -> 2 of 3, +0.50 units, ROI +16.7 %.
  await playedTicket(t, staff, { betCategoryId: ref.d2, matchDate: today, legs: [{ home: 'Arsenal', away: 'Chelsea', odds: 2 }], results: ['won'] });
  await playedTicket(t, staff, {
    betCategoryId: ref.d2,
    matchDate: `${today.slice(0, 7)}-01`,
    legs: [{ home: 'Leeds', away: 'Everton', odds: 1.5 }],
    results: ['won'],
  });
  await playedTicket(t, staff, { betCategoryId: ref.o15, matchDate: today, legs: [{ home: 'Lyon', away: 'Nice', odds: 3 }], results: ['lost'] });
  // Last month in D2: one lost ticket, outside a this-month block.
  await playedTicket(t, staff, { betCategoryId: ref.d2, matchDate: lastMonth.to, legs: [{ home: 'Roma', away: 'Lecce', odds: 1.8 }], results: ['lost'] });
});
afterAll(() => t.close());

describe('a record block on the Winnings & Results page', () => {
  it('keeps the block marker through sanitisation, and nothing unsafe around it', async () => {
    const marker = recordBlockMarker('D2', 'this-month');
    expect((await save(`<p>${marker}</p><p onclick="steal()">Great week<img src=x onerror=steal()></p>`)).statusCode).toBe(200);
    expect(await saved()).toBe(`<p>${marker}</p><p>Great week</p>`);
  });

  it('is shown to readers as the figures computed from the results, never the marker', async () => {
    const body = await portalHome();
    expect(body).not.toContain('[[record:');
    const block = body.slice(body.indexOf('<section class="card record">'), body.indexOf('</section>'));
    expect(block).toContain('Daily 2 Odds (D2)');
    expect(block).toContain('This month');
    // The last-month loss is outside the period: 2 settled, both won.
    expect(block).toContain('2 settled tickets');
    expect(block).toContain('<dt>Hit rate</dt><dd>100.0 %</dd>');
    expect(block).toContain('+1.50 units');
    expect(block).toContain('+75.0 %');
    expect(body).toContain('<p>Great week</p>');
  });

  it('updates itself when results are entered, with no new save', async () => {
    await save(`<p>${recordBlockMarker('ALL', 'all')}</p>`);
    const before = await portalHome();
    // All categories, all time: won 2.00, won 1.50, lost, lost -> 50.0 %, -0.50 units.
    expect(before).toContain('All categories');
    expect(before).toContain('4 settled tickets');
    expect(before).toContain('<dt>Hit rate</dt><dd>50.0 %</dd>');
    await playedTicket(t, staff, {
      betCategoryId: ref.o15,
      matchDate: `${today.slice(0, 7)}-01`,
      legs: [{ home: 'Lens', away: 'Lille', odds: 1.5 }, { home: 'Metz', away: 'Brest', odds: 2 }],
      results: ['won', 'won'],
    });
    const after = await portalHome();
    expect(after).toContain('5 settled tickets');
    expect(after).toContain('<dt>Hit rate</dt><dd>60.0 %</dd>');
  });

  it('refuses a block naming an unknown category or period, naming the field', async () => {
    const unknown = await save(`<p>${recordBlockMarker('ZZ', 'this-month')}</p>`);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.content[0]).toContain('no category has the code "ZZ"');
    const period = await save('<p>[[record:D2:next-year]]</p>');
    expect(period.statusCode).toBe(422);
    expect(period.json().errors.content[0]).toContain('has no period "next-year"');
  });

  it('fills in only blocks in the text, never inside a tag', async () => {
    const marker = recordBlockMarker('D2', 'all');
    expect((await save(`<p><a href="https://example.com/${marker}">Proof</a></p>`)).statusCode).toBe(200);
    const body = await portalHome();
    expect(body).toContain(`<a href="https://example.com/${marker}"`);
    expect(body).not.toContain('<section class="card record">');
  });

  it('escapes what it renders: a category name is text', async () => {
    await t.deps.db.execute(`update bet_categories set name = '<b onclick=x>D2</b>' where code = 'D2'`);
    await save(`<p>${recordBlockMarker('D2', 'all')}</p>`);
    const body = await portalHome();
    expect(body).toContain('&lt;b onclick=x&gt;D2&lt;/b&gt; (D2)');
    expect(body).not.toContain('<b onclick=x>');
  });
});
