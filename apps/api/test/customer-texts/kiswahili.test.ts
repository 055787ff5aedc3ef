import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { smsMessages } from '../../src/db/schema/index.ts';
import { customerTexts, LANGUAGES, type CustomerTextId } from '../../src/customer-texts/catalogue.ts';
import { customerDate, customerDateTime, fill } from '../../src/customer-texts/format.ts';
import { queueTipsReceipt } from '../../src/modules/mpesa/receipts.ts';
import { runSubscriptionExpiry } from '../../src/modules/subscriptions/expiry.ts';
import { nameOrCode, short, walk, type MenuFacts } from '../../src/modules/ussd/menu.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { addTipsSubscriber, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';
import { screen } from '../ussd/fixtures.ts';

/* Kiswahili as a Swahili reader reads it, and one date form per language in every customer text. */

const sw = (id: CustomerTextId) => customerTexts[id].sw;
const ids = Object.keys(customerTexts) as CustomerTextId[];

describe('the Kiswahili of the catalogue', () => {
  it('says money returned and money kept in the plural of pesa (za, zimerudishwa, tumeziweka)', () => {
    expect(fill(sw('sms.refund_sent'), { amount: '500.00', receipt: 'TKR1234567', refundReceipt: 'TKR7654321', business: 'Betdesk Tips' }, 'sw')).toBe(
      'Marejesho: KES 500.00 za malipo yako TKR1234567 zimerudishwa kwenye M-Pesa yako (risiti ya M-Pesa TKR7654321). Betdesk Tips',
    );
    expect(sw('tips_credit_sms')).toBe('Tumepokea KES {amount} ({receipt}) na tumeziweka kama salio kwenye akaunti yako. {prices}');
  });

  it('says a subscription on automatic renewal is paid automatically (inalipiwa kiotomatiki), not that it pays for itself', () => {
    expect(fill(sw('ussd.subscription_auto_line'), { category: 'Daily 2 Odds', medium: 'SMS', date: '8 Des 2026' }, 'sw')).toBe(
      'Daily 2 Odds SMS hadi 8 Des 2026, inalipiwa kiotomatiki',
    );
  });

  it('refuses an erased number "at the request of the number\'s owner" (mwenye nambari)', () => {
    for (const id of ['ussd.erased_refused', 'portal.erased_refused'] as const) {
      expect(sw(id)).toContain('kwa ombi la mwenye nambari:');
      expect(sw(id)).not.toContain('mwenyewe');
    }
  });

  it('calls a letter code (D2, GG) msimbo, never nambari', () => {
    expect(sw('sms_help_reply')).toContain('tuma msimbo wa aina ya tips (mfano D2)');
    expect(sw('portal.pay.paybill')).toContain('Nambari ya akaunti: msimbo wa tips unazotaka.');
    for (const id of ids) expect(sw(id), id).not.toMatch(/nambari ya (aina ya )?tips/i);
  });

  it('asks to scan the QR code (Skani msimbo wa QR), not to photograph it', () => {
    expect(sw('portal.invoice_sent')).toContain('Skani msimbo wa QR au fungua kiungo uithibitishe kwa KRA.');
    expect(sw('portal.invoice_sent')).not.toContain('Piga picha');
  });
});

describe('dates in customer texts', () => {
  it('have one form per language: Kiswahili months and "saa" before the time in Kiswahili, the day never padded', () => {
    const at = new Date('2026-12-08T20:26:00Z'); // 23:26 in Nairobi
    expect(customerDateTime(at, 'sw')).toBe('8 Des 2026, saa 23:26');
    expect(customerDateTime(at, 'en')).toBe('8 Dec 2026, 23:26');
    expect(customerDate(at, 'sw')).toBe('8 Des 2026');
    expect(customerDate('2026-12-08', 'en')).toBe('8 Dec 2026');
    const months = Array.from({ length: 12 }, (_, m) => customerDate(new Date(Date.UTC(2027, m, 15)), 'sw').split(' ')[1]);
    expect(months).toEqual(['Jan', 'Feb', 'Mac', 'Apr', 'Mei', 'Jun', 'Jul', 'Ago', 'Sep', 'Okt', 'Nov', 'Des']);
  });

  it('are written by the one formatter wherever a customer reads them (no staff date format in a customer text)', () => {
    const readers = [
      'src/modules/portal/pages.ts',
      'src/modules/ussd/service.ts',
      'src/modules/auto-renew/service.ts',
      'src/modules/subscriptions/expiry.ts',
      'src/modules/mpesa/receipts.ts',
      'src/modules/recovery/service.ts',
    ];
    for (const file of readers) {
      const source = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      expect(source, file).not.toMatch(/\bformatDate(Time)?\(|toLocaleDateString|toLocaleString|Intl\.DateTimeFormat|smsDateTime/);
    }
  });
});

describe('a Kiswahili reader, on every channel', () => {
  let t: TestApp;
  let ref: TipsReference;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { MPESA_SHORTCODE: '600984' } });
    ref = await tipsReference(t.deps.db);
    await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
    admin = await t.tokenFor('boss@betdesk.test');
  });
  afterAll(() => t.close());

  const lastSms = async (phone: string, intent: string) =>
    (
      await t.deps.db
        .select({ body: smsMessages.body })
        .from(smsMessages)
        .where(sql`${smsMessages.recipient} = ${phone} and ${smsMessages.intent} = ${intent}`)
        .orderBy(asc(smsMessages.id))
    ).at(-1)!.body;
  const SW_DATE_TIME = /\b\d{1,2} (Jan|Feb|Mac|Apr|Mei|Jun|Jul|Ago|Sep|Okt|Nov|Des) \d{4}, saa \d\d:\d\d\b/;
  const SW_DATE = /\b\d{1,2} (Jan|Feb|Mac|Apr|Mei|Jun|Jul|Ago|Sep|Okt|Nov|Des) \d{4}\b/;

  it('reads the same date form in the receipt, the reminder and the USSD menu', async () => {
    const phone = '254711310001';
    await screen(t, '6*2', `+${phone}`);
    const subscriberId = await addTipsSubscriber(t.deps.db, ref, phone, 'sms', ref.d2);
    await t.deps.db.transaction((tx) =>
      queueTipsReceipt(tx, {
        paymentId: 1,
        receipt: 'TKR1234599',
        subscriberId,
        subscriptionId: 999_101,
        packageName: 'Daily 2 Odds SMS',
        amountCents: 50_000,
        expiresAt: new Date('2026-12-08T20:26:00Z'),
        createdBy: null,
      }),
    );
    expect(await lastSms(phone, 'tips.receipt')).toContain('zinaendelea hadi 8 Des 2026, saa 23:26.');

    await t.deps.db.execute(sql`update subscriptions set expires_at = now() + interval '12 hours' where subscriber_id = ${subscriberId}`);
    await runSubscriptionExpiry(t.deps.db);
    expect(await lastSms(phone, 'subscription.reminder')).toMatch(SW_DATE_TIME);

    const menu = await screen(t, '2', `+${phone}`);
    expect(menu).toMatch(new RegExp(`^END Usajili wangu:\\nDaily 2 Odds SMS hadi ${SW_DATE.source}$`));
  });

  it('reads the portal home page description in Kiswahili, as the business words it in Settings', async () => {
    const home = (language: string) => t.app.inject({ method: 'GET', url: '/portal', headers: { cookie: `betdesk_lang=${language}` } });
    expect((await home('sw')).body).toContain('<meta name="description" content="Tips bora za kubeti mpira kwa SMS na kwenye tovuti, unalipa kwa M-Pesa.">');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/settings/update',
      headers: { authorization: `Bearer ${admin}` },
      payload: { key: 'portal_description_sw', value: 'Tips za mpira kila siku, kwa M-Pesa.' },
    });
    expect(saved.statusCode).toBe(200);
    const sw = (await home('sw')).body;
    expect(sw).toContain('<p>Tips za mpira kila siku, kwa M-Pesa.</p>');
    expect(sw).toContain('content="Tips za mpira kila siku, kwa M-Pesa."');
    expect((await home('en')).body).toContain('<p>Premium football betting tips by SMS and on the web, paid by M-Pesa.</p>');
  });
});

describe('USSD choices', () => {
  const LONG_NAME = 'Both Teams To Score Over 2.5 Goals';
  it('cut a name at a word, never inside one', () => {
    expect(short(LONG_NAME)).toBe('Both Teams To Score Over 2.5');
    expect(short('Both Teams To Score', 16)).toBe('Both Teams To');
    expect(short('Daily 2 Odds')).toBe('Daily 2 Odds');
    expect(nameOrCode(LONG_NAME, 'BTTS', 16)).toBe('BTTS');
    expect(nameOrCode('Daily 2 Odds', 'D2', 16)).toBe('Daily 2 Odds');
  });

  for (const language of LANGUAGES) {
    it(`show a long category whole words on the list and its code on My subscriptions (${language})`, async () => {
      const facts: MenuFacts = {
        language: async () => language,
        welcome: async () => 'Betdesk tips',
        optedOut: async () => false,
        categories: async () => [{ id: 1, label: short(LONG_NAME) }],
        packages: async () => [],
        packageOnSale: async () => null,
        subscriptions: async () => [{ category: LONG_NAME, code: 'BTTS', medium: 'SMS', date: '8 Des 2026', autoRenew: { subscriptionId: 5 } }],
        pausable: async () => ({ refusal: 'none' }),
        takesPromoCodes: async () => false,
        promoPrice: async () => ({ price: 'KES 1' }),
        asksAge: async () => false,
        consented: async () => false,
        consentWording: async () => '',
      };
      const list = await walk('1', facts);
      expect('screen' in list && list.screen).toContain('\n1 Both Teams To Score Over 2.5\n');
      const mine = await walk('2', facts);
      const shown = 'screen' in mine ? mine.screen : '';
      expect(shown).toContain(language === 'en' ? '\nBTTS SMS to 8 Des 2026\n1 Renew BTTS SMS automatically' : '\nBTTS SMS hadi 8 Des 2026\n1 Lipia BTTS SMS kiotomatiki');
      for (const screenText of ['screen' in list ? list.screen : '', shown]) expect(screenText).not.toMatch(/\b\w+\.\n/);
    });
  }
});
