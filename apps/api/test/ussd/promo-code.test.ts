/**
 * A promo code on the USSD menu (decision 077, amended): the confirm screen offers it, a valid code
 * confirms at the discounted price, the job's STK push asks that price and the sale records the use;
 * a wrong or spent code says why and lets the punter retry or skip; skipping buys at list price; the
 * words are the phone's language; a self-excluded phone is refused as before.
 * Lives in: apps/api/test/ussd/promo-code.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { agents, promoCodes, promoCodeUses, subscriptions, ussdPurchases } from '../../src/db/schema/index.ts';
import { referralCode } from '../../src/modules/promo-codes/service.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { customerTexts, LANGUAGES } from '../../src/customer-texts/catalogue.ts';
import { setLanguage } from '../../src/modules/sms/languages.ts';
import { SCREEN_MAX, walk, type MenuFacts } from '../../src/modules/ussd/menu.ts';
import { sendQueuedUssdPurchases } from '../../src/modules/ussd/service.ts';
import type { TestApp } from '../helpers.ts';
import { appWithFakeDaraja, declaredAdult, paymentByReceipt, SANDBOX_PASSKEY, seedPeople } from '../mpesa/fixtures.ts';
import { newSession, screen } from './fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Awaited<ReturnType<typeof seedPeople>>;

const DAY = 86_400_000;

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  ref = await seedPeople(t);
  const running = { startsAt: new Date(Date.now() - DAY), endsAt: new Date(Date.now() + 30 * DAY) };
  await t.deps.db.insert(promoCodes).values([
    { code: 'RADIO10', kind: 'percent', percentOff: 10, packageIds: [ref.d2Sms.id], ...running, maxUses: 100 },
    { code: 'ONE', kind: 'fixed', amountOffCents: 5_000, packageIds: [ref.d2Sms.id], ...running, maxUses: 1, uses: 1, onePerPhone: false },
  ]);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const LIST_CONFIRM = 'CON Daily 2 Odds SMS, 7 days: KES 100.\nPay by M-Pesa from 0711000601?\n1 Pay\n2 Promo code\n0 Back';
const QUESTION = 'Promo code? Enter it, or 0 to skip';

const purchaseOf = async (sessionId: string) => (await t.deps.db.select().from(ussdPurchases).where(eq(ussdPurchases.sessionId, sessionId)))[0];

describe('a promo code on the USSD menu', () => {
  it('confirms at the discounted price, the push asks it, and the sale records the use at that price', async () => {
    const phone = '254711000601';
    expect(await screen(t, '1*1*1', `+${phone}`)).toBe(LIST_CONFIRM);
    expect(await screen(t, '1*1*1*2', `+${phone}`)).toBe(`CON ${QUESTION}`);
    expect(await screen(t, '1*1*1*2*radio10', `+${phone}`)).toBe(
      'CON Daily 2 Odds SMS, 7 days: KES 90 with promo code.\nPay by M-Pesa from 0711000601?\n1 Pay\n0 Back',
    );
    // Back from the discounted price is the list price again.
    expect(await screen(t, '1*1*1*2*radio10*0', `+${phone}`)).toBe(LIST_CONFIRM);

    const sessionId = newSession();
    expect(await screen(t, '1*1*1*2*radio10*1', `+${phone}`, sessionId)).toBe(
      'CON Betting tips are for adults only. Are you 18 years old or older?\n1 Yes, I am 18 or older\n0 Back',
    );
    expect(await screen(t, '1*1*1*2*radio10*1*1', `+${phone}`, sessionId)).toBe('END Enter your M-Pesa PIN when asked to pay KES 90 for Daily 2 Odds SMS.');
    expect(await purchaseOf(sessionId)).toMatchObject({ status: 'queued', promoCode: 'RADIO10' });

    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'UPC6000601' });
    expect(await sendQueuedUssdPurchases(t.deps)).toBe(1);
    await fake.settled();
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: phone, Amount: 90, AccountReference: 'D2' });
    const payment = await paymentByReceipt(t, 'UPC6000601');
    const [sale] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, payment!.id));
    expect(sale).toMatchObject({ packageId: ref.d2Sms.id, amountCents: 9_000 });
    const [use] = await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, payment!.id));
    expect(use).toMatchObject({ status: 'used', channel: 'ussd', listPriceCents: 10_000, discountCents: 1_000, priceCents: 9_000, subscriptionId: sale!.id });

    // One use per phone: the second time says why.
    expect(await screen(t, '1*1*1*2*RADIO10', `+${phone}`)).toBe(`CON This number has already used promo code RADIO10.\n${QUESTION}`);
  });

  it('says why a wrong or a spent code cannot be used, and lets the punter retry or skip', async () => {
    const phone = '+254711000602';
    expect(await screen(t, '1*1*1*2*NOSUCH', phone)).toBe(`CON There is no promo code NOSUCH. Check it and try again.\n${QUESTION}`);
    expect(await screen(t, '1*1*1*2*NOSUCH*ONE', phone)).toBe(`CON Promo code ONE has been used up.\n${QUESTION}`);
    expect(await screen(t, '1*1*1*2*NOSUCH*ONE*RADIO10', phone)).toMatch(/^CON Daily 2 Odds SMS, 7 days: KES 90 with promo code\./);
    expect(await screen(t, '1*1*1*2*NOSUCH*0', phone)).toBe(LIST_CONFIRM.replace('0711000601', '0711000602'));
  });

  it('buys at list price when the punter skips the code', async () => {
    const phone = '254711000603';
    await declaredAdult(t, phone);
    const sessionId = newSession();
    expect(await screen(t, '1*1*1*2*0*1', `+${phone}`, sessionId)).toBe('END Enter your M-Pesa PIN when asked to pay KES 100 for Daily 2 Odds SMS.');
    expect(await purchaseOf(sessionId)).toMatchObject({ status: 'queued', promoCode: null });
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'UPC6000603' });
    expect(await sendQueuedUssdPurchases(t.deps)).toBe(1);
    await fake.settled();
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: phone, Amount: 100 });
    const payment = await paymentByReceipt(t, 'UPC6000603');
    expect(await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, payment!.id))).toEqual([]);
  });

  it('speaks Kiswahili to a sw subscriber', async () => {
    const phone = '254711000604';
    await setLanguage(t.deps.db, { phone, language: 'sw', source: 'ussd', by: null });
    expect(await screen(t, '1*1*1', `+${phone}`)).toMatch(/\n1 Lipa\n2 Msimbo wa punguzo\n0 Rudi$/);
    expect(await screen(t, '1*1*1*2*NOSUCH', `+${phone}`)).toBe(
      'CON Hakuna msimbo wa punguzo NOSUCH. Uangalie ujaribu tena.\nMsimbo wa punguzo? Uandike, au 0 kuruka',
    );
    expect(await screen(t, '1*1*1*2*ONE', `+${phone}`)).toBe('CON Msimbo wa punguzo ONE umeshatumika wote.\nMsimbo wa punguzo? Uandike, au 0 kuruka');
    expect(await screen(t, '1*1*1*2*RADIO10', `+${phone}`)).toMatch(/^CON Daily 2 Odds SMS, siku 7: KES 90 \(punguzo\)\.\n/);
  });

  it('sells nothing to a self-excluded phone, code or not', async () => {
    const phone = '254711000605';
    await declaredAdult(t, phone);
    expect(await screen(t, '7*1', `+${phone}`)).toMatch(/^END You are excluded until/);
    expect(await screen(t, '1*1*1*2*RADIO10*1', `+${phone}`)).toBe('END Nothing can be sold to this number (self-exclusion or age).');
    const before = (await t.deps.db.select().from(promoCodes).where(eq(promoCodes.code, 'RADIO10')))[0]!.uses;
    expect(before).toBe(1);
  });

  it('fits the code screens in 182 characters in both languages, with the longest code and names', async () => {
    const long = 'Xy'.repeat(20);
    for (const language of LANGUAGES) {
      const refusals = Object.keys(customerTexts).filter((id) => id.startsWith('promo.')) as (keyof typeof customerTexts)[];
      for (const id of refusals) {
        const facts = (priced: boolean): MenuFacts => ({
          language: async () => language,
          welcome: async () => long,
          optedOut: async () => false,
          categories: async () => [{ id: 1, label: long.slice(0, 28) }],
          packages: async () => [{ id: 1, label: 'Web 365 days KES 99,999.99' }],
          packageOnSale: async () => ({ category: long, medium: 'SMS', days: 365, price: 'KES 99,999.99', dayPrice: 'KES 99,999.99', phone: '0711 222 333' }),
          subscriptions: async () => [],
          pausable: async () => ({ refusal: 'none' }),
        takesPromoCodes: async () => true,
          promoPrice: async () =>
            priced ? { price: 'KES 99,999.99' } : { refusal: customerTexts[id][language].replace('{code}', long).replace('{date}', '2026-12-31') },
          asksAge: async () => true,
          consented: async () => false,
          consentWording: async () => '',
        });
        for (const [path, priced] of [['1*1*1*2', false], [`1*1*1*2*${long}`, false], [`1*1*1*2*${long}`, true], [`1*1*1*2*${long}*9`, true]] as const) {
          const out = await walk(path, facts(priced));
          const shown = 'screen' in out ? out.screen : '';
          expect(shown.length, `${language} ${id} "${path}": ${shown}`).toBeLessThanOrEqual(SCREEN_MAX);
          expect(shown).toMatch(/^CON /);
        }
      }
    }
  });
});

describe('a referral code on the USSD menu (decision 088)', () => {
  it('is typed at the promo step, asks the list price, and the sale records the referral', async () => {
    const [agent] = await t.deps.db.insert(agents).values({ name: 'Wekesa', phone: '254722000688' }).returning({ id: agents.id });
    const code = await referralCode(t.deps.db, { agentId: agent!.id });
    const phone = '254711000688';
    await declaredAdult(t, phone);
    const sessionId = newSession();
    expect(await screen(t, `1*1*1*2*${code}`, `+${phone}`, sessionId)).toBe(
      'CON Daily 2 Odds SMS, 7 days: KES 100 with promo code.\nPay by M-Pesa from 0711000688?\n1 Pay\n0 Back',
    );
    expect(await screen(t, `1*1*1*2*${code}*1`, `+${phone}`, sessionId)).toMatch(/^END /);
    fake.outcomes.push({ resultCode: 0, callback: true, receipt: 'UPC6000688' });
    expect(await sendQueuedUssdPurchases(t.deps)).toBe(1);
    await fake.settled();
    expect(fake.pushes.at(-1)).toMatchObject({ PartyA: phone, Amount: 100 });
    const payment = await paymentByReceipt(t, 'UPC6000688');
    const [use] = await t.deps.db.select().from(promoCodeUses).where(eq(promoCodeUses.paymentId, payment!.id));
    expect(use).toMatchObject({ status: 'used', channel: 'ussd', discountCents: 0, priceCents: 10_000 });
    // The agent's own phone is refused as self-referral.
    expect(await screen(t, `1*1*1*2*${code}`, '+254722000688')).toMatch(/^CON Referral code \d{6} cannot be used from this number/);
  });
});
