import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, smsEncoding, smsParts } from '@betdesk/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { smsMessages, standingOrders, subscriptions, taxInvoices, tipsSubscribers } from '../../src/db/schema/index.ts';
import { customerTexts, LANGUAGES, type CustomerTextId, type Language } from '../../src/customer-texts/catalogue.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { runAutoRenewal, turnOn } from '../../src/modules/auto-renew/service.ts';
import { requestPackagePayment } from '../../src/modules/mpesa/service.ts';
import { runRecovery } from '../../src/modules/recovery/service.ts';
import type { TestApp } from '../helpers.ts';
import { c2b, closeDarajaWorld, confirm, darajaWorld, declaredAdult, SANDBOX_PASSKEY, type Reference } from '../mpesa/fixtures.ts';
import { screen } from '../ussd/fixtures.ts';

/*
 * Every link a customer text carries opens a portal page about that purchase (the package to pay
 * again, My account for an automatic renewal), never the staff sign-in at the site's root. The
 * texts are produced by the flows that send them, in English and Kiswahili, and each link found is
 * followed against the app, redirects included.
 */

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
let phoneNo = 711000700;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await darajaWorld({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  await t.deps.db.execute(sql`update settings set value = 'true'::jsonb where key = 'mpesa_ratiba_enabled'`);
});
afterAll(() => closeDarajaWorld({ t, fake }));

/** A phone reading in `language` (its USSD choice). */
async function phoneIn(language: Language): Promise<string> {
  phoneNo += 1;
  const phone = `254${phoneNo}`;
  await screen(t, language === 'en' ? '6*1' : '6*2', `+${phone}`);
  return phone;
}

/** A punter of the D2 weekly SMS package, paid by paybill. */
async function weeklySubscriber(language: Language) {
  const phone = await phoneIn(language);
  await declaredAdult(t, phone); // declared 18+ before paying (decision 066)
  expect((await confirm(t, c2b({ MSISDN: phone, BillRefNumber: 'D2', TransAmount: '100.00', BusinessShortCode: '174379' }))).statusCode).toBe(200);
  const [subscriber] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, subscriber!.id));
  return { phone, subscriberId: subscriber!.id, subscriptionId: sub!.id };
}

async function lastSms(phone: string, intent: string): Promise<string> {
  const sent = await t.deps.db
    .select({ body: smsMessages.body })
    .from(smsMessages)
    .where(and(eq(smsMessages.recipient, phone), eq(smsMessages.intent, intent)))
    .orderBy(asc(smsMessages.id));
  expect(sent.length, `${intent} SMS to ${phone}`).toBeGreaterThan(0);
  return sent.at(-1)!.body;
}

/** Each flow that sends a text with a link, run for a phone in `language`; answers the text sent. */
const flows: Record<string, { id: CustomerTextId; run: (language: Language) => Promise<string> }> = {
  'payment.recovery-reminder': {
    id: 'sms.recovery_reminder',
    async run(language) {
      const phone = await phoneIn(language);
      const subscriberId = await ref.person('subscriber', `Payer ${phone}`, phone);
      fake.outcomes.push({ resultCode: 1032, callback: true });
      const id = await requestPackagePayment(t.deps, { subscriberId, phone, packageId: ref.d2Sms.id, requestId: null, origin: 'ussd' });
      await fake.settled();
      // Cancelled a day and a half ago: the reminder is due.
      await t.deps.db.execute(sql`update stk_requests set requested_at = now() - interval '36 hours', settled_at = now() - interval '36 hours' where id = ${id}`);
      await runRecovery(t.deps);
      await runRecovery(t.deps);
      return lastSms(phone, 'payment.recovery-reminder');
    },
  },
  'auto-renew.on': {
    id: 'sms.auto_renew_on',
    async run(language) {
      const p = await weeklySubscriber(language);
      await turnOn(t.deps, { ...p, via: 'portal', requestId: null });
      await fake.settled();
      return lastSms(p.phone, 'auto-renew.on');
    },
  },
  'auto-renew.declined': {
    id: 'sms.auto_renew_declined',
    async run(language) {
      const p = await weeklySubscriber(language);
      fake.ratibaOutcomes.push({ resultCode: 1032, callback: true });
      await turnOn(t.deps, { ...p, via: 'portal', requestId: null });
      await fake.settled();
      return lastSms(p.phone, 'auto-renew.declined');
    },
  },
  'auto-renew.missed': {
    id: 'sms.auto_renew_missed',
    async run(language) {
      const p = await weeklySubscriber(language);
      const { standing_order } = await turnOn(t.deps, { ...p, via: 'portal', requestId: null });
      await fake.settled();
      const [order] = await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, standing_order.id));
      await runAutoRenewal(t.deps, new Date(`${addDays(order!.nextDate, 1)}T10:00:00+03:00`));
      return lastSms(p.phone, 'auto-renew.missed');
    },
  },
  'tax.invoice-link': {
    id: 'sms.invoice_link',
    async run(language) {
      const p = await weeklySubscriber(language);
      const [invoice] = await t.deps.db.select({ id: taxInvoices.id }).from(taxInvoices).where(eq(taxInvoices.subscriptionId, p.subscriptionId));
      // Staff text the buyer a link to the sale's invoice (decision 087).
      expect((await t.as(admin, { method: 'POST', url: `/api/tax/invoices/${invoice!.id}/send-link` })).statusCode).toBe(200);
      return lastSms(p.phone, 'tax.invoice-link');
    },
  },
};

const LINK = /https?:\/\/[^\s)]+/g;
/** The links in a text, without the sentence's own full stop or comma after them. */
const linksIn = (text: string) => (text.match(LINK) ?? []).map((l) => l.replace(/[.,;:]+$/, ''));

/** The page a link opens, following redirects (a page that needs signing in goes to the portal's sign-in). */
async function open(link: string) {
  const url = new URL(link);
  expect(url.origin).toBe('https://betdesk.example.com');
  let path = `${url.pathname}${url.search}`;
  for (let hops = 0; hops < 5; hops += 1) {
    const res = await t.app.inject({ method: 'GET', url: path });
    if (res.statusCode < 300 || res.statusCode >= 400) return { path, res };
    path = String(res.headers.location);
  }
  throw new Error(`${link} redirects more than 5 times`);
}

describe('the links in customer texts', () => {
  it('covers every catalogue text that carries a link', () => {
    const withLink = (Object.keys(customerTexts) as CustomerTextId[]).filter((id) => LANGUAGES.some((l) => customerTexts[id][l].includes('{link}')));
    expect(withLink.sort()).toEqual(Object.values(flows).map((f) => f.id).sort());
  });

  for (const [intent, flow] of Object.entries(flows)) {
    for (const language of LANGUAGES) {
      it(`opens a portal page from ${intent} (${language})`, async () => {
        const text = await flow.run(language);
        const links = linksIn(text);
        expect(links, text).toHaveLength(1);
        // Still an SMS a business pays for sensibly: GSM-7, at most two parts with the link in it.
        expect(smsEncoding(text)).toBe('GSM-7');
        expect(smsParts(text), text).toBeLessThanOrEqual(2);
        const { path, res } = await open(links[0]!);
        expect(path, text).toMatch(/^\/portal(\/|$)/);
        expect(res.statusCode, `${links[0]} -> ${path}`).toBe(200);
        expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
        // A portal page: its header, its language switch and its 18+ line (the staff app has none of them).
        expect(res.body).toContain('action="/portal/language"');
        expect(res.body).toContain('data-responsible');
        expect(res.body).not.toContain('id="root"');
      });
    }
  }

  it('sends the failed purchase back to its own package, and an automatic renewal to My account', async () => {
    const reminder = await flows['payment.recovery-reminder']!.run('en');
    expect(linksIn(reminder)).toEqual([`https://betdesk.example.com/portal/packages/${ref.d2Sms.id}`]);
    const on = await flows['auto-renew.on']!.run('sw');
    expect(linksIn(on)).toEqual(['https://betdesk.example.com/portal/account']);
  });
});
