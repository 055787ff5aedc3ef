import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { auditLog, betCategories, pricePackages, smsMessages, smsOptOutEvents, smsOptOuts, ussdPurchases } from '../../src/db/schema/index.ts';
import { activateSubscription } from '../../src/modules/subscriptions/service.ts';
import { publishSmsTip } from '../../src/modules/tips-sms/service.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addTipsSubscriber, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';
import { dial, newSession, screen } from './fixtures.ts';

let t: TestApp;
let ref: TipsReference;
const nudged: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  t.deps.jobs = { nudge: async (queue) => void nudged.push(queue), stop: async () => {} };
  ref = await tipsReference(t.deps.db);
});
afterAll(async () => {
  await t.close();
});

/** Another running subscription for the subscriber (7 days). */
async function activate(subscriberId: number, betCategoryId: number, medium: 'sms' | 'web') {
  await t.deps.db.transaction((tx) =>
    activateSubscription(tx, {
      what: { subscriberId, packageId: ref.d2SmsWeek, betCategoryId, medium },
      durationDays: 7,
      amountCents: 30_000,
      source: 'manual',
    }),
  );
}

async function messagesTo(phone: string) {
  return t.deps.db
    .select({ intent: smsMessages.intent, body: smsMessages.body, smsClass: smsMessages.smsClass })
    .from(smsMessages)
    .where(eq(smsMessages.recipient, phone))
    .orderBy(asc(smsMessages.id));
}

describe('USSD menu', () => {
  it('opens on the main menu, as plain text within 182 characters', async () => {
    const res = await dial(t, { text: '' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe("CON Betdesk tips\n1 Buy tips\n2 My subscriptions\n3 Today's tips\n4 Stop SMS\n5 Offers by SMS\n6 Lugha / Language\n7 Self-exclusion\n8 Pause");
  });

  it('answers 404 to a wrong secret, for the menu and the end-of-session notification', async () => {
    expect((await dial(t, { text: '' }, 'wrong-secret-0123456789')).statusCode).toBe(404);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/hooks/ussd/session-end/wrong-secret-0123456789',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'sessionId=ATUid_1&status=Success',
    });
    expect(res.statusCode).toBe(404);
  });

  it('lists the categories for sale, then their packages with medium, duration and price, then asks to confirm', async () => {
    expect(await screen(t, '1')).toBe('CON Buy tips: choose\n1 Daily 2 Odds\n2 Over 1.5 Goals\n0 Back');
    expect(await screen(t, '1*1')).toBe(
      'CON Daily 2 Odds: choose\n1 SMS 7 days KES 500\n2 SMS 30 days KES 1500\n3 Web 7 days KES 400\n0 Back',
    );
    expect(await screen(t, '1*1*2')).toBe(
      'CON Daily 2 Odds SMS, 30 days: KES 1500.\nPay by M-Pesa from 0711222333?\n1 Pay\n0 Back',
    );
  });

  it('goes back with 0 on every screen, and stays on the main menu there', async () => {
    const main = await screen(t, '');
    expect(await screen(t, '0')).toBe(main);
    expect(await screen(t, '1*0')).toBe(main);
    expect(await screen(t, '1*1*0')).toBe(await screen(t, '1'));
    expect(await screen(t, '1*1*1*0')).toBe(await screen(t, '1*1'));
    expect(await screen(t, '1*1*1*0*0*0')).toBe(main);
    expect(await screen(t, '4*0')).toBe(main);
  });

  it('answers input outside the menu with a short error and the same menu, never a 500', async () => {
    const main = (await screen(t, '')).slice(4);
    expect(await screen(t, '9')).toBe(`CON Invalid choice.\n${main}`);
    expect(await screen(t, 'abc')).toBe(`CON Invalid choice.\n${main}`);
    expect(await screen(t, '#')).toBe(`CON Invalid choice.\n${main}`);
    expect(await screen(t, '1*9')).toBe(`CON Invalid choice.\n${(await screen(t, '1')).slice(4)}`);
    expect(await screen(t, '1*98')).toBe(`CON Invalid choice.\n${(await screen(t, '1')).slice(4)}`);
    expect(await screen(t, '1*1*1*2')).toBe(`CON Invalid choice.\n${(await screen(t, '1*1*1')).slice(4)}`);
    expect(await screen(t, '1**')).toBe(`CON Invalid choice.\n${(await screen(t, '1')).slice(4)}`);
    // An earlier wrong input was answered then; the path goes on from where it was.
    expect(await screen(t, '9*1')).toBe(await screen(t, '1'));
    expect(await screen(t, `${'9*'.repeat(200)}1`)).toBe(await screen(t, '1'));
    expect(await screen(t, '99999999999999999999*1')).toBe(await screen(t, '1'));
  });

  it('ends a request without a session or phone with a screen, not a JSON 422', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/hooks/ussd/test-webhook-secret-0123',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'text=1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('END Sorry, we could not read that. Please dial again.');
  });

  it('ends the session for a phone that is not a Kenyan mobile', async () => {
    expect(await screen(t, '', '+12025550123')).toBe('END This service is for Kenyan mobile numbers only.');
  });

  it('pages a long list with 98 More, and 0 goes back a page', async () => {
    const extra = Array.from({ length: 10 }, (_, i) => ({ name: `Zed Market Number ${i + 1}`, code: `Z${i + 1}` }));
    const added = await t.deps.db.insert(betCategories).values(extra).returning({ id: betCategories.id });
    await t.deps.db
      .insert(pricePackages)
      .values(added.map((c) => ({ betCategoryId: c.id, medium: 'sms' as const, name: 'Z weekly', durationDays: 7, priceCents: 10_000 })));
    try {
      const first = await screen(t, '1');
      expect(first).toMatch(/\n98 More\n0 Back$/);
      const shown = first.split('\n').filter((l) => /^\d+ /.test(l) && !l.startsWith('98 ') && !l.startsWith('0 '));
      const second = await screen(t, '1*98');
      expect(second).toContain(`${shown.length + 1} Zed Market`);
      expect(await screen(t, '1*98*0')).toBe(first);
      // An item of page 1 is not on page 2.
      expect(await screen(t, '1*98*1')).toBe(`CON Invalid choice.\n${second.slice(4)}`);
      expect(await screen(t, `1*98*${shown.length + 1}`)).toMatch(/^CON Zed Market Number \d+: choose\n1 SMS 7 days KES 100\n0 Back$/);
      let page = '1';
      for (let i = 0; i < 10; i += 1) {
        const s = await screen(t, page);
        expect(s.length).toBeLessThanOrEqual(182);
        if (!s.includes('\n98 More')) break;
        page += '*98';
      }
      expect(await screen(t, page)).toContain('Zed Market Number 9');
    } finally {
      await t.deps.db.delete(pricePackages).where(eq(pricePackages.name, 'Z weekly'));
      for (const c of added) await t.deps.db.delete(betCategories).where(eq(betCategories.id, c.id));
    }
  });

  it('sends the paybill instructions by SMS when M-Pesa is not configured, once per session', async () => {
    const sessionId = newSession();
    nudged.length = 0;
    const end = await screen(t, '1*1*1*1*1', '+254711000101', sessionId);
    expect(end).toBe('END We are sending you an SMS with how to pay KES 500 by M-Pesa.');
    expect(await screen(t, '1*1*1*1*1', '+254711000101', sessionId)).toBe(end);
    const sent = await messagesTo('254711000101');
    expect(sent).toEqual([
      {
        intent: 'ussd.pay-instructions',
        smsClass: 'transactional',
        body: 'To pay for Daily 2 Odds SMS, 7 days: M-Pesa > Lipa na M-Pesa > Pay Bill, business number 600984, account number D2, amount KES 500.',
      },
    ]);
    const purchases = await t.deps.db.select().from(ussdPurchases).where(eq(ussdPurchases.sessionId, sessionId));
    expect(purchases).toMatchObject([{ status: 'instructed', phone: '254711000101', packageId: ref.d2SmsWeek }]);
    expect(nudged).toContain('sms-dispatch');
    expect(nudged).not.toContain('ussd-purchases');
  });

  it('shows "none" under My subscriptions to a phone without running subscriptions', async () => {
    expect(await screen(t, '2', '+254711000102')).toBe('END My subscriptions: none.\nChoose 1 Buy tips to subscribe.');
  });

  it('lists each running subscription with its expiry, leaving out expired ones', async () => {
    const subscriberId = await addTipsSubscriber(t.deps.db, ref, '254711000103', 'sms', ref.d2);
    await activate(subscriberId, ref.o15, 'web');
    await addTipsSubscriber(t.deps.db, ref, '254711000105', 'sms', ref.d2, true);
    expect(await screen(t, '2', '+254711000103')).toMatch(
      /^END My subscriptions:\nDaily 2 Odds SMS to \d{1,2} \w{3} \d{4}\nOver 1\.5 Goals Web to \d{1,2} \w{3} \d{4}$/,
    );
    expect(await screen(t, '2', '+254711000105')).toBe('END My subscriptions: none.\nChoose 1 Buy tips to subscribe.');
  });

  it("re-sends today's SMS tip of each running SMS subscription, at most once a day", async () => {
    const phone = '254711000106';
    const subscriberId = await addTipsSubscriber(t.deps.db, ref, phone, 'sms', ref.d2);
    await activate(subscriberId, ref.o15, 'sms');
    expect(await screen(t, '3', `+${phone}`)).toBe('END D2, O15: no tips yet today; they come by SMS when ready.');
    await publishSmsTip(t.deps.db, { betCategoryId: ref.d2, content: 'D2 today: Gor Mahia v Tusker 1X', createdBy: null });
    const before = (await messagesTo(phone)).length;
    expect(await screen(t, '3', `+${phone}`)).toBe(
      "END Today's D2 tips are on their way by SMS.\nO15: no tips yet today; they come by SMS when ready.",
    );
    const after = await messagesTo(phone);
    expect(after.slice(before)).toEqual([{ intent: 'tips.sms-tip-again', body: 'D2 today: Gor Mahia v Tusker 1X', smsClass: 'transactional' }]);
    expect(await screen(t, '3', `+${phone}`)).toBe('END D2: already sent again today.\nO15: no tips yet today; they come by SMS when ready.');
    expect(await messagesTo(phone)).toHaveLength(after.length);
    expect(await screen(t, '3', '+254711000108')).toBe('END You have no running SMS tips. Choose 1 Buy tips to subscribe.');
  });

  it('stops and restarts SMS after a confirmation, by the STOP/START rules, audited', async () => {
    const phone = '254711000109';
    expect(await screen(t, '4', `+${phone}`)).toBe(
      'CON Stop all tips and offers by SMS? Payment receipts still come.\n1 Yes, stop SMS\n0 Back',
    );
    expect(await t.deps.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone))).toHaveLength(0);
    expect(await screen(t, '4*1', `+${phone}`)).toMatch(/^END Done: no more tips or offers by SMS/);
    expect(await t.deps.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone))).toMatchObject([{ scope: 'all', source: 'ussd' }]);
    expect(await screen(t, '', `+${phone}`)).toMatch(/\n4 Start SMS\n5 Offers by SMS\n6 Lugha \/ Language\n7 Self-exclusion\n8 Pause$/);
    expect(await screen(t, '4', `+${phone}`)).toBe('CON Receive our tips and offers by SMS again?\n1 Yes, start SMS\n0 Back');
    expect(await screen(t, '4*1', `+${phone}`)).toBe('END Done: you will receive our tips and offers by SMS again.');
    expect(await t.deps.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone))).toHaveLength(0);
    const events = await t.deps.db.select().from(smsOptOutEvents).where(eq(smsOptOutEvents.phone, phone)).orderBy(asc(smsOptOutEvents.id));
    expect(events.map((e) => [e.action, e.source])).toEqual([['opt-out', 'ussd'], ['opt-in', 'ussd']]);
    const audited = await t.deps.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'sms_opt_out'), eq(auditLog.entityId, phone)))
      .orderBy(asc(auditLog.id));
    expect(audited).toEqual([
      { action: 'sms.opt-out', actor: null },
      { action: 'sms.opt-out.clear', actor: null },
    ]);
  });

  it("accepts Africa's Talking's end-of-session notification, on its own URL or the menu's", async () => {
    const form = new URLSearchParams({
      date: '2026-11-25 12:00:00',
      sessionId: 'ATUid_end_1',
      serviceCode: '*384*22#',
      networkCode: '63902',
      phoneNumber: '+254711222333',
      status: 'Success',
      cost: 'KES 0.0000',
      durationInMillis: '23000',
      hopsCount: '4',
      input: '1*1*1*1',
      lastAppResponse: 'END Enter your M-Pesa PIN when asked',
      errorMessage: '',
    }).toString();
    for (const url of ['/api/hooks/ussd/session-end/test-webhook-secret-0123', '/api/hooks/ussd/test-webhook-secret-0123']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('OK');
    }
  });
});
