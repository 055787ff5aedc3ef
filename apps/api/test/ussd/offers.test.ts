import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, marketingConsentEvents } from '../../src/db/schema/index.ts';
import { hasConsent } from '../../src/modules/sms/consent.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { dial, newSession, screen } from './fixtures.ts';

let t: TestApp;
const phone = '254722456789';
const dialled = `+${phone}`;
const WORDING = 'Yes, send me offers and news of new tips by SMS. I can stop them at any time by sending STOP.';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const history = () =>
  t.deps.db
    .select({ given: marketingConsentEvents.given, channel: marketingConsentEvents.channel, wording: marketingConsentEvents.wording })
    .from(marketingConsentEvents)
    .where(eq(marketingConsentEvents.phone, phone))
    .orderBy(marketingConsentEvents.id);

describe('marketing consent on the USSD menu', () => {
  it('asks with the exact wording, and gives nothing until the person agrees', async () => {
    expect(await screen(t, '5', dialled)).toBe(`CON ${WORDING}\n1 I agree\n0 Back`);
    expect(await screen(t, '5*0', dialled)).toMatch(/^CON Betdesk tips\n/);
    expect(await screen(t, '5*7', dialled)).toBe(`CON Invalid choice.\n${WORDING}\n1 I agree\n0 Back`);
    expect(await hasConsent(t.deps.db, phone)).toBe(false);
  });

  it('records consent given through USSD with the wording shown, audited', async () => {
    const session = newSession();
    expect((await dial(t, { text: '5', phone: dialled, sessionId: session })).statusCode).toBe(200);
    const res = await dial(t, { text: '5*1', phone: dialled, sessionId: session });
    expect(res.body).toBe('END Thank you: you will receive our offers by SMS. Dial again or send STOP to stop them.');
    expect(await hasConsent(t.deps.db, phone)).toBe(true);
    expect(await history()).toEqual([{ given: true, channel: 'ussd', wording: WORDING }]);
    const audited = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'consent.given'));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ entity: 'marketing_consent', after: { channel: 'ussd', by: 'the person (USSD)' } });
  });

  it('offers to withdraw it once given, and records the withdrawal', async () => {
    expect(await screen(t, '5', dialled)).toBe('CON You receive our offers by SMS. Stop them?\n1 Yes, stop offers\n0 Back');
    expect(await screen(t, '5*1', dialled)).toBe('END Done: no more offers by SMS. Tips you pay for still come.');
    expect(await hasConsent(t.deps.db, phone)).toBe(false);
    expect((await history()).map((h) => [h.given, h.channel])).toEqual([
      [true, 'ussd'],
      [false, 'ussd'],
    ]);
    expect(await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'consent.withdrawn'))).toHaveLength(1);
  });

  it("leaves another phone's consent alone", async () => {
    expect(await screen(t, '5*1', '+254733000111')).toMatch(/^END Thank you/);
    expect(await hasConsent(t.deps.db, phone)).toBe(false);
    expect(await hasConsent(t.deps.db, '254733000111')).toBe(true);
  });
});
