import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { auditLog, phoneLanguages, smsMessages } from '../../src/db/schema/index.ts';
import { runSubscriptionExpiry } from '../../src/modules/subscriptions/expiry.ts';
import { queueTipsReceipt } from '../../src/modules/mpesa/receipts.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { addTipsSubscriber, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';
import { screen } from '../ussd/fixtures.ts';

let t: TestApp;
let ref: TipsReference;
let admin: string;
let inboundSeq = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
  ref = await tipsReference(t.deps.db);
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@betdesk.test');
});
afterAll(async () => {
  await t.close();
});

/** A text from a phone, as Africa's Talking posts it. */
const textFrom = (phone: string, text: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/hooks/sms/inbound/test-webhook-secret-0123',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ from: `+${phone}`, to: '22384', text, id: `ATin_lang_${(inboundSeq += 1)}` }).toString(),
  });

const languageRows = (phone: string) => t.deps.db.select().from(phoneLanguages).where(eq(phoneLanguages.phone, phone));

async function lastSmsTo(phone: string, intent: string): Promise<string> {
  const sent = await t.deps.db
    .select({ body: smsMessages.body })
    .from(smsMessages)
    .where(sql`${smsMessages.recipient} = ${phone} and ${smsMessages.intent} = ${intent}`)
    .orderBy(asc(smsMessages.id));
  if (sent.length === 0) throw new Error(`no ${intent} SMS to ${phone}`);
  return sent[sent.length - 1]!.body;
}

describe('A language per phone', () => {
  it('stores the USSD "Lugha / Language" choice once per phone and answers in the language chosen', async () => {
    const phone = '254711300001';
    expect(await screen(t, '6', `+${phone}`)).toBe('CON Lugha / Language\n1 English\n2 Kiswahili\n0 Back');
    expect(await screen(t, '6*2', `+${phone}`)).toBe('END Sawa: tutakuandikia kwa Kiswahili.');
    expect(await screen(t, '6*2', `+${phone}`)).toBe('END Sawa: tutakuandikia kwa Kiswahili.');
    expect(await languageRows(phone)).toMatchObject([{ language: 'sw', source: 'ussd' }]);
    expect(await screen(t, '', `+${phone}`)).toMatch(/\n1 Nunua tips\n2 Usajili wangu\n/);
    expect(await screen(t, '2', `+${phone}`)).toBe('END Usajili wangu: hakuna.\nChagua 1 Nunua tips ujiandikishe.');
  });

  it('switches by the SMS keywords KISWAHILI, SWAHILI, SW, ENGLISH and EN, replying in the language chosen', async () => {
    const phone = '254711300002';
    for (const [keyword, language] of [['Kiswahili', 'sw'], ['english', 'en'], [' SWAHILI ', 'sw'], ['EN', 'en'], ['sw', 'sw']] as const) {
      expect((await textFrom(phone, keyword)).statusCode).toBe(200);
      expect(await languageRows(phone)).toMatchObject([{ language, source: 'sms' }]);
    }
    expect(await lastSmsTo(phone, 'sms.keyword-reply')).toBe('Sawa: tutakuandikia kwa Kiswahili. Tuma EN for English.');
    await textFrom(phone, 'STOP');
    expect(await lastSmsTo(phone, 'sms.keyword-reply')).toBe('Hutapokea tena tips wala ofa kutoka kwetu. Tuma START kuzipokea tena.');
  });

  it('sends a Kiswahili reader the receipt, the sign-in code, the reminder and the payment instructions in Kiswahili', async () => {
    const phone = '254711300003';
    await screen(t, '6*2', `+${phone}`);
    const subscriberId = await addTipsSubscriber(t.deps.db, ref, phone, 'sms', ref.d2);

    await t.deps.db.transaction((tx) =>
      queueTipsReceipt(tx, {
        paymentId: 1,
        receipt: 'TKR1234567',
        subscriberId,
        subscriptionId: 999_001,
        packageName: 'Daily 2 Odds SMS',
        amountCents: 50_000,
        expiresAt: new Date('2026-12-03T09:00:00Z'),
        createdBy: null,
      }),
    );
    expect(await lastSmsTo(phone, 'tips.receipt')).toBe(
      'Asante Subscriber 254711300003. Tumepokea KES 500.00 (TKR1234567). Tips zako za Daily 2 Odds SMS zinaendelea hadi 3 Des 2026, saa 12:00.',
    );

    const res = await t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone }, remoteAddress: '10.8.8.8' });
    expect(res.statusCode).toBe(200);
    expect(await lastSmsTo(phone, 'portal.sign-in-code')).toMatch(/^Nambari yako ya kuingia .+ ni \d{6}\. Inatumika kwa dakika 10\. Usimpe mtu yeyote\.$/);

    await t.deps.db.execute(sql`update subscriptions set expires_at = now() + interval '12 hours' where subscriber_id = ${subscriberId}`);
    await runSubscriptionExpiry(t.deps.db);
    expect(await lastSmsTo(phone, 'subscription.reminder')).toMatch(/^Habari Subscriber 254711300003, usajili wako wa .+ unaisha .+\. Lipia tena kwa M-Pesa uendelee kupokea\. 18\+\. Kamari ni uraibu\. Cheza kwa uwajibikaji\.$/);

    expect(await screen(t, '1*1*1*1*1', `+${phone}`)).toBe('END Tunakutumia SMS ya jinsi ya kulipa KES 500 kwa M-Pesa.');
    expect(await lastSmsTo(phone, 'ussd.pay-instructions')).toBe(
      'Kulipia Daily 2 Odds SMS, siku 7: M-Pesa > Lipa na M-Pesa > Pay Bill, nambari ya biashara 600984, nambari ya akaunti D2, kiasi KES 500.',
    );
  });

  it('serves a phone that never chose in the business default, and its own choice over it', async () => {
    const save = (key: string, value: string) =>
      t.app.inject({ method: 'POST', url: '/api/settings/update', headers: { authorization: `Bearer ${admin}` }, payload: { key, value } });
    expect((await save('customer_language_default', 'sw')).statusCode).toBe(200);
    expect(await screen(t, '', '+254711300004')).toMatch(/\n1 Nunua tips\n/);
    expect(await screen(t, '', '+254711300002')).toMatch(/\n1 Nunua tips\n/);
    await textFrom('254711300002', 'ENGLISH');
    expect(await screen(t, '', '+254711300002')).toMatch(/\n1 Buy tips\n/);
    expect((await save('customer_language_default', 'en')).statusCode).toBe(200);
  });

  it("sends the business's own Kiswahili wording once staff edit it, and refuses one missing a placeholder", async () => {
    const save = (key: string, value: string) =>
      t.app.inject({ method: 'POST', url: '/api/settings/update', headers: { authorization: `Bearer ${admin}` }, payload: { key, value } });
    const bad = await save('sms_stop_category_reply_sw', 'Hutapokea tena tips hizi.');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.value[0]).toMatch(/\{category\}/);
    expect((await save('sms_stop_category_reply_sw', 'Sawa, {category} zimesitishwa. Tuma START kuzipokea tena.')).statusCode).toBe(200);
    const phone = '254711300005';
    await textFrom(phone, 'SW');
    await textFrom(phone, 'STOP D2');
    expect(await lastSmsTo(phone, 'sms.keyword-reply')).toBe('Sawa, Daily 2 Odds zimesitishwa. Tuma START kuzipokea tena.');
  });

  it("lets staff set a subscriber's language on their page, audited, and the read carries it", async () => {
    const phone = '254711300006';
    const subscriberId = await addTipsSubscriber(t.deps.db, ref, phone, 'sms', ref.d2);
    const show = async () =>
      (await t.app.inject({ url: `/api/tips/subscribers/show?subscriber_id=${subscriberId}`, headers: { authorization: `Bearer ${admin}` } })).json()
        .subscriber.language;
    expect(await show()).toBe('en');
    const set = (language: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/tips/subscribers/language',
        headers: { authorization: `Bearer ${admin}` },
        payload: { subscriber_id: subscriberId, language },
      });
    const bad = await set('fr');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.language).toBeDefined();
    expect((await set('sw')).statusCode).toBe(200);
    expect(await show()).toBe('sw');
    expect(await languageRows(phone)).toMatchObject([{ language: 'sw', source: 'staff' }]);
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'tips-subscriber.language'));
    expect(audits).toMatchObject([{ entityId: String(subscriberId), after: { language: 'sw' } }]);
    expect(await screen(t, '', `+${phone}`)).toMatch(/\n1 Nunua tips\n/);
  });

  it('lets a signed-in punter choose Kiswahili on the portal, stored with the phone, and /me carries it', async () => {
    const phone = '254711300007';
    await t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone }, remoteAddress: '10.8.8.9' });
    const code = /\d{6}/.exec(await lastSmsTo(phone, 'portal.sign-in-code'))![0];
    const signedIn = await t.app.inject({ method: 'POST', url: '/api/portal/auth/verify', payload: { phone, code }, remoteAddress: '10.8.8.9' });
    expect(signedIn.statusCode).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const me = async () => (await t.app.inject({ url: '/api/portal/me', headers: { cookie } })).json();
    expect((await me()).language).toBe('en');
    const bad = await t.app.inject({ method: 'POST', url: '/api/portal/language', headers: { cookie }, payload: { language: 'de' } });
    expect(bad.statusCode).toBe(422);
    const chosen = await t.app.inject({ method: 'POST', url: '/api/portal/language', headers: { cookie }, payload: { language: 'sw' } });
    expect(chosen.json()).toMatchObject({ language: 'sw', info: 'Sawa: tutakuandikia kwa Kiswahili.' });
    expect(await me()).toMatchObject({ language: 'sw', offers_wording: expect.stringMatching(/^Ndiyo, nitumie ofa/) });
    expect(await languageRows(phone)).toMatchObject([{ language: 'sw', source: 'portal' }]);
  });
});
