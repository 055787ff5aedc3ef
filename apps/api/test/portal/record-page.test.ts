import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nairobiDayOf, presetRange } from '@betdesk/contract';
import { customerDate } from '../../src/customer-texts/format.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { signedInStaff, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';
import { playedTicket } from '../tips-record/played.ts';

let t: TestApp;
let ref: TipsReference;

const get = (url: string) => t.app.inject({ method: 'GET', url });
const cards = (body: string) => body.split('<section class="card record">').slice(1).map((c) => c.slice(0, c.indexOf('</section>')));

beforeAll(async () => {
  t = await createTestApp();
  ref = await tipsReference(t.deps.db);
  const { staff } = await signedInStaff(t);
  const today = nairobiDayOf(new Date());
  await playedTicket(t, staff, { betCategoryId: ref.d2, matchDate: today, legs: [{ home: 'Arsenal', away: 'Chelsea', odds: 2 }], results: ['won'] });
  await playedTicket(t, staff, { betCategoryId: ref.o15, matchDate: today, legs: [{ home: 'Lyon', away: 'Nice', odds: 1.4 }], results: ['lost'] });
  await playedTicket(t, staff, {
    betCategoryId: ref.d2,
    matchDate: presetRange('last-month').from,
    legs: [{ home: 'Roma', away: 'Lecce', odds: 1.5 }, { home: 'Inter', away: 'Genoa', odds: 1.2 }],
    results: ['won', 'void'],
  });
});
afterAll(() => t.close());

describe('the public track record page', () => {
  it('shows every category with the settled count and the period beside the rates, to anyone', async () => {
    const res = await get('/portal/record');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const [all, d2, o15] = cards(res.body);
    expect(all).toContain('All categories');
    expect(all).toContain('All time · 3 settled tickets');
    expect(d2).toContain('Daily 2 Odds (D2)');
    // Won at 2.00 and at 1.50 (the void leg counts 1.00): 100 %, +1.50 units, ROI +75.0 %.
    expect(d2).toContain('All time · 2 settled tickets');
    expect(d2).toContain('<dt>Hit rate</dt><dd>100.0 %</dd>');
    expect(d2).toContain('+1.50 units');
    expect(d2).toContain('+75.0 %');
    expect(o15).toContain('Over 1.5 Goals (O15)');
    expect(o15).toContain('<dt>Hit rate</dt><dd>0.0 %</dd>');
    expect(o15).toContain('\u22121.00 units');
  });

  it('covers a preset period, naming its days', async () => {
    const range = presetRange('last-month');
    const body = (await get('/portal/record?period=last-month')).body;
    const [all, d2] = cards(body);
    expect(all).toContain('1 settled ticket');
    expect(d2).toContain(`Last month, ${customerDate(range.from!, 'en')} to ${customerDate(range.to!, 'en')}`);
    expect(body).toContain('aria-current="page">Last month</a>');
    // O15 played nothing last month: no card of its own.
    expect(cards(body)).toHaveLength(2);
  });

  it('answers an unknown period with the whole record, and loads no script', async () => {
    const body = (await get('/portal/record?period=<script>')).body;
    expect(body).toContain('aria-current="page">All time</a>');
    expect(body).not.toMatch(/<script/i);
  });

  it('says so when no ticket counts in the period', async () => {
    const body = (await get('/portal/record?period=yesterday')).body;
    expect(body).toContain('No category has a ticket in this period.');
    expect(cards(body)[0]).toContain('No settled ticket in this period yet.');
  });
});
