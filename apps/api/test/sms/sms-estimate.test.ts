import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, createTestApp, type TestApp } from '../helpers.ts';

/** Issue 31: POST /api/sms/estimate, the cost of a text as the composers show it. */
let t: TestApp;
let admin: string;
let staff: string;

const estimate = (token: string | null, payload: Record<string, unknown>) => t.as(token, { method: 'POST', url: '/api/sms/estimate', payload });

beforeAll(async () => {
  t = await createTestApp();
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  await t.addUser({ email: 'agent@betdesk.test', categoryId: AGENT });
  admin = await t.tokenFor('boss@betdesk.test');
  staff = await t.tokenFor('agent@betdesk.test');
});
afterAll(() => t.close());

describe('SMS estimate', () => {
  it('gives a GSM-7 text its parts, characters left and cost to the recipients at the price of a part', async () => {
    const res = await estimate(staff, { text: 'a'.repeat(161), recipients: 1000 });
    expect(res.statusCode).toBe(200);
    // The default price of a part is 80 cents: 1000 people × 2 parts × KES 0.80.
    expect(res.json()).toEqual({
      encoding: 'GSM-7',
      parts: 2,
      per_part: 153,
      characters_left: 145,
      unicode_characters: [],
      recipients: 1000,
      price_per_part: 0.8,
      cost: 1600,
    });
  });

  it('names the curly apostrophe that makes a text Unicode, and prices one recipient when none is given', async () => {
    const res = await estimate(admin, { text: `Arsenal’s ${'a'.repeat(90)}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ encoding: 'UCS-2', parts: 2, per_part: 67, unicode_characters: ['’'], recipients: 1, cost: 1.6 });
  });

  it('follows the price of a part set by an admin', async () => {
    const saved = await t.as(admin, { method: 'POST', url: '/api/settings/update', payload: { key: 'sms_cost_per_part_cents', value: '100' } });
    expect(saved.statusCode).toBe(200);
    const res = await estimate(staff, { text: 'Hello', recipients: 3 });
    expect(res.json()).toMatchObject({ parts: 1, characters_left: 155, price_per_part: 1, cost: 3 });
  });

  it('refuses a missing or over-long text and a bad number of recipients, naming the field', async () => {
    for (const [payload, field] of [
      [{}, 'text'],
      [{ text: '' }, 'text'],
      [{ text: 'a'.repeat(1601) }, 'text'],
      [{ text: 'Hi', recipients: 0 }, 'recipients'],
      [{ text: 'Hi', recipients: 2.5 }, 'recipients'],
      [{ text: 'Hi', recipients: 'many' }, 'recipients'],
      [{ text: 'Hi', recipients: 10_000_001 }, 'recipients'],
    ] as const) {
      const res = await estimate(staff, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    }
  });

  it('needs a signed-in staff member', async () => {
    expect((await estimate(null, { text: 'Hi' })).statusCode).toBe(401);
  });
});
