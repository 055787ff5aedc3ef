import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { smsMessages } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { tipsReference } from '../tips-fixtures/reference.ts';
import { dial, newSession, screen, SECRET } from './fixtures.ts';

let t: TestApp;

beforeAll(async () => {
  // No MPESA_SHORTCODE: the business has not configured its paybill number.
  t = await createTestApp();
  await tipsReference(t.deps.db);
});
afterAll(async () => {
  await t.close();
});

const post = (contentType: string, payload: string, secret = SECRET) =>
  t.app.inject({ method: 'POST', url: `/api/hooks/ussd/${secret}`, headers: { 'content-type': contentType }, payload });

describe('every USSD request is answered with a screen', () => {
  it('ends the session with a screen when the typed text is over 1,000 characters', async () => {
    const res = await dial(t, { text: `1*${'9'.repeat(1200)}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toBe('END Sorry, we could not read that. Please dial again.');
  });

  it('ends the session with a screen when the session or phone is missing', async () => {
    const res = await post('application/x-www-form-urlencoded', 'text=1');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^END /);
  });

  it('ends the session with a screen when the body cannot be parsed', async () => {
    const res = await post('application/json', '{"sessionId": ');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^END /);
  });

  it('still answers 404 to a wrong secret', async () => {
    expect((await post('application/x-www-form-urlencoded', 'text=1', 'not-the-secret')).statusCode).toBe(404);
  });
});

describe('the payment SMS without a paybill number', () => {
  it('leaves the business number out instead of reading "business number our paybill"', async () => {
    const sessionId = newSession();
    expect(await screen(t, '1*1*1*1*1', '+254711000401', sessionId)).toBe('END We are sending you an SMS with how to pay KES 500 by M-Pesa.');
    const sent = await t.deps.db
      .select({ body: smsMessages.body })
      .from(smsMessages)
      .where(eq(smsMessages.recipient, '254711000401'))
      .orderBy(asc(smsMessages.id));
    expect(sent).toEqual([
      { body: 'To pay for Daily 2 Odds SMS, 7 days: M-Pesa > Lipa na M-Pesa > Pay Bill, account number D2, amount KES 500.' },
    ]);
  });
});
