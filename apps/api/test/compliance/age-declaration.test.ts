import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ageDeclarations, ussdPurchases } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { signInToPortal, type TestApp } from '../helpers.ts';
import { appWithFakeDaraja, SANDBOX_PASSKEY } from '../mpesa/fixtures.ts';
import { signedInStaff, tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';
import { newSession, screen } from '../ussd/fixtures.ts';

// The 18+ declaration of issue 49 (decision 060): asked before a phone's first purchase, on the
// portal (a tick) and on USSD (a confirm screen), and not at all while `rg_age_gate` is off.

let t: TestApp;
let fake: FakeDaraja;
let ref: TipsReference;
let admin: string;

beforeAll(async () => {
  ({ t, fake } = await appWithFakeDaraja({ MPESA_SHORTCODE: '174379', MPESA_PASSKEY: SANDBOX_PASSKEY }));
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  ref = await tipsReference(t.deps.db);
  admin = (await signedInStaff(t)).admin;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

let ipSeq = 0;
const signIn = (local: string): Promise<string> => signInToPortal(t, local, `10.1.0.${++ipSeq}`);

const buy = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/portal/purchase', payload, headers: { cookie } });
const declarationOf = async (phone: string) => (await t.deps.db.select().from(ageDeclarations).where(eq(ageDeclarations.phone, phone)))[0] ?? null;
const setGate = (value: boolean) =>
  t.as(admin, { method: 'POST', url: '/api/settings/update', payload: { key: 'rg_age_gate', value, ...(value ? {} : { reason: 'Counsel says tips need no age check' }) } });

describe('the 18+ declaration on the portal', () => {
  it('refuses a first purchase without the tick (422 on adult), and records the tick with its channel and time', async () => {
    const cookie = await signIn('0711000501');
    const refused = await buy(cookie, { package_id: ref.d2WebWeek });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.adult).toEqual(['Tick that you are 18 or older to buy.']);
    expect(await declarationOf('254711000501')).toBeNull();
    expect(fake.pushes).toHaveLength(0);

    fake.outcomes.push({ resultCode: 1032, callback: true });
    const bought = await buy(cookie, { package_id: ref.d2WebWeek, adult: true });
    expect(bought.statusCode).toBe(200);
    await fake.settled();
    const declared = await declarationOf('254711000501');
    expect(declared).toMatchObject({ channel: 'portal' });
    expect(Date.now() - declared!.declaredAt.getTime()).toBeLessThan(60_000);

    // Declared once: the next purchase asks nothing, and the first declaration is kept.
    fake.outcomes.push({ resultCode: 1032, callback: true });
    expect((await buy(cookie, { package_id: ref.d2WebWeek })).statusCode).toBe(200);
    await fake.settled();
    expect(await declarationOf('254711000501')).toEqual(declared);
  });

  it('shows the tick with its text on the package page (English and Kiswahili) until the phone has declared', async () => {
    const cookie = await signIn('0711000502');
    const page = await t.app.inject({ method: 'GET', url: `/portal/packages/${ref.d2WebWeek}`, headers: { cookie } });
    expect(page.body).toContain('<input type="checkbox" name="adult" value="1" required>');
    expect(page.body).toContain('I am 18 years old or older.');
    const sw = await t.app.inject({ method: 'GET', url: `/portal/packages/${ref.d2WebWeek}`, headers: { cookie: `${cookie}; betdesk_lang=sw` } });
    expect(sw.body).toContain('Lipa kwa M-Pesa');
    expect(sw.body).toContain('Nina umri wa miaka 18 au zaidi.');

    // The plain form without the tick is refused with the sentence, not bought.
    const form = await t.app.inject({
      method: 'POST',
      url: '/portal/buy',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `package_id=${ref.d2WebWeek}`,
    });
    expect(form.statusCode).toBe(422);
    expect(form.body).toContain('Tick that you are 18 or older to buy.');
    fake.outcomes.push({ resultCode: 1032, callback: true });
    const ticked = await t.app.inject({
      method: 'POST',
      url: '/portal/buy',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `package_id=${ref.d2WebWeek}&adult=1`,
    });
    expect(ticked.statusCode).toBe(303);
    await fake.settled();
    expect(await declarationOf('254711000502')).toMatchObject({ channel: 'portal' });
    const after = await t.app.inject({ method: 'GET', url: `/portal/packages/${ref.d2WebWeek}`, headers: { cookie } });
    expect(after.body).not.toContain('name="adult"');
  });
});

describe('the 18+ declaration on USSD', () => {
  it('asks on a confirm screen after the purchase is confirmed, and records it with the purchase', async () => {
    const phone = '254711000503';
    const confirm = await screen(t, '1*1*1', `+${phone}`);
    expect(confirm).toMatch(/^CON .*\n1 Pay\n2 Promo code\n0 Back$/s);
    const asked = await screen(t, '1*1*1*1', `+${phone}`);
    expect(asked).toBe('CON Betting tips are for adults only. Are you 18 years old or older?\n1 Yes, I am 18 or older\n0 Back');
    expect(await declarationOf(phone)).toBeNull();
    // Anything but 1 is no declaration and no purchase.
    expect(await screen(t, '1*1*1*1*2', `+${phone}`)).toMatch(/^CON Invalid choice\.\nBetting tips are for adults only/);
    expect(await declarationOf(phone)).toBeNull();

    const sessionId = newSession();
    expect(await screen(t, '1*1*1*1*1', `+${phone}`, sessionId)).toMatch(/^END Enter your M-Pesa PIN/);
    expect(await declarationOf(phone)).toMatchObject({ channel: 'ussd' });
    expect(await t.deps.db.select().from(ussdPurchases).where(eq(ussdPurchases.sessionId, sessionId))).toHaveLength(1);

    // Declared: the next purchase goes straight from the confirmation.
    expect(await screen(t, '1*1*1*1', `+${phone}`)).toMatch(/^END Enter your M-Pesa PIN/);
  });

  it('a phone that declared on the portal is not asked again on USSD', async () => {
    expect(await screen(t, '1*1*1*1', '+254711000501')).toMatch(/^END Enter your M-Pesa PIN/);
  });
});

describe('with the age gate off (rg_age_gate)', () => {
  it('asks no declaration on either channel and records none; on again, it asks', async () => {
    expect((await setGate(false)).statusCode).toBe(200);
    try {
      expect(await screen(t, '1*1*1*1', '+254711000504')).toMatch(/^END Enter your M-Pesa PIN/);
      const cookie = await signIn('0711000505');
      const page = await t.app.inject({ method: 'GET', url: `/portal/packages/${ref.d2WebWeek}`, headers: { cookie } });
      expect(page.body).not.toContain('name="adult"');
      fake.outcomes.push({ resultCode: 1032, callback: true });
      expect((await buy(cookie, { package_id: ref.d2WebWeek })).statusCode).toBe(200);
      await fake.settled();
      expect(await declarationOf('254711000504')).toBeNull();
      expect(await declarationOf('254711000505')).toBeNull();
    } finally {
      expect((await setGate(true)).statusCode).toBe(200);
    }
    expect(await screen(t, '1*1*1*1', '+254711000504')).toMatch(/^CON Betting tips are for adults only/);
  });
});

describe('the declaration in the data-protection export and erasure', () => {
  it('lists the declaration in the subject export, and an erasure removes it', async () => {
    const subject = await t.as(admin, { method: 'GET', url: '/api/privacy/subject?phone=0711000502' });
    expect(subject.json().age_declaration).toEqual([expect.objectContaining({ channel: 'portal' })]);
    const erased = await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: '0711000502', reason: 'Asked by phone on 2 Dec' } });
    expect(erased.statusCode).toBe(200);
    expect(await declarationOf('254711000502')).toBeNull();
  });
});
