import { eq, sql } from 'drizzle-orm';
import { ageDeclarations, bet4mePlans, betCategories, clients, ledgerEntries, mpesaPayments, pricePackages, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { balanceCents } from '../../src/modules/ledger/service.ts';
import { startFakeDaraja, type FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';

export const SECRET = 'test-webhook-secret-0123';

let receiptSeq = 0;
/** A fresh M-Pesa receipt per call ("RKL..."). */
/** Daraja's published sandbox passkey (shortcode 174379). */
export const SANDBOX_PASSKEY = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';

/**
 * A test app whose M-Pesa is a fake Daraja on loopback (`env` adds the shortcode, passkey, till),
 * the fake's callbacks delivered to the app in process instead of the public callback URL.
 */
export async function appWithFakeDaraja(env: Record<string, string>): Promise<{ t: TestApp; fake: FakeDaraja }> {
  const fake = await startFakeDaraja();
  const t = await createTestApp({
    env: {
      MPESA_BASE_URL: fake.baseUrl,
      MPESA_CONSUMER_KEY: fake.consumerKey,
      MPESA_CONSUMER_SECRET: fake.consumerSecret,
      MPESA_CALLBACK_BASE_URL: 'https://betdesk.example.com',
      ...env,
    },
  });
  fake.deliver = async (url, body) => {
    await t.app.inject({ method: 'POST', url: new URL(url).pathname, payload: body as object });
  };
  return { t, fake };
}

export function receipt(): string {
  receiptSeq += 1;
  return `RKT${String(Date.now()).slice(-5)}${String(receiptSeq).padStart(4, '0')}`;
}

/** A C2B confirmation body as Daraja sends it: every value a string. */
export function c2b(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    TransactionType: 'Pay Bill',
    TransID: receipt(),
    TransTime: '20250314153045',
    TransAmount: '100.00',
    BusinessShortCode: '600984',
    BillRefNumber: 'D2',
    InvoiceNumber: '',
    OrgAccountBalance: '',
    ThirdPartyTransID: '',
    MSISDN: '254799000001',
    FirstName: 'JOHN',
    MiddleName: '',
    LastName: 'KAMAU',
    ...over,
  };
}

export function confirm(t: TestApp, body: unknown, secret = SECRET) {
  return t.app.inject({
    method: 'POST',
    url: `/api/hooks/c2b/confirmation/${secret}`,
    headers: { 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function paymentByReceipt(t: TestApp, transId: string) {
  const [found] = await t.deps.db.select().from(mpesaPayments).where(eq(mpesaPayments.transId, transId));
  return found;
}

export async function subscriptionsOfPayment(t: TestApp, paymentId: number) {
  return t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, paymentId));
}

export async function ledgerOf(t: TestApp, holder: { clientId: number } | { subscriberId: number }) {
  return balanceCents(t.deps.db, holder);
}

export async function ledgerSumOfPayment(t: TestApp, paymentId: number): Promise<number> {
  const [row] = await t.deps.db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.paymentId, paymentId));
  return Number(row?.total ?? 0);
}

/**
 * The phone has declared it is 18 or older (decision 066): a paybill payment from it buys at once.
 * A test of a first purchase from a new phone calls it for a person who ticked on the portal or
 * confirmed on USSD before paying; the age gate's own tests leave it out.
 */
export async function declaredAdult(t: TestApp, ...phones: string[]): Promise<void> {
  for (const phone of phones) await t.deps.db.insert(ageDeclarations).values({ phone, channel: 'before_gate' }).onConflictDoNothing();
}

/** The business's reference data and a few people, as a test starts from. */
export async function seedPeople(t: TestApp) {
  const db = t.deps.db;
  const [d2] = await db.insert(betCategories).values({ name: 'Daily 2 Odds', code: 'D2' }).returning();
  const [ov] = await db.insert(betCategories).values({ name: 'Over 2.5', code: 'OV' }).returning();
  const [d2Sms] = await db
    .insert(pricePackages)
    .values({ betCategoryId: d2!.id, medium: 'sms', name: 'Daily 2 Odds SMS weekly', durationDays: 7, priceCents: 10_000 })
    .returning();
  const [d2Web] = await db
    .insert(pricePackages)
    .values({ betCategoryId: d2!.id, medium: 'web', name: 'Daily 2 Odds web weekly', durationDays: 7, priceCents: 10_000 })
    .returning();
  const [d2Month] = await db
    .insert(pricePackages)
    .values({ betCategoryId: d2!.id, medium: 'sms', name: 'Daily 2 Odds SMS monthly', durationDays: 30, priceCents: 35_000 })
    .returning();
  const [weekly] = await db.insert(bet4mePlans).values({ name: 'Weekly', durationDays: 7, priceCents: 100_000 }).returning();
  const [monthly] = await db.insert(bet4mePlans).values({ name: 'Monthly', durationDays: 30, priceCents: 300_000 }).returning();
  const person = async (table: 'client' | 'subscriber', name: string, phone: string) => {
    if (table === 'client') {
      const [c] = await db.insert(clients).values({ name, phone, phoneHash: sha256Hex(phone) }).returning({ id: clients.id });
      return c!.id;
    }
    const [s] = await db.insert(tipsSubscribers).values({ name, phone, phoneHash: sha256Hex(phone) }).returning({ id: tipsSubscribers.id });
    // A reference subscriber bought before: declared 18+, as migration 0058 counts such phones (decision 066).
    await declaredAdult(t, phone);
    return s!.id;
  };
  return {
    d2: d2!,
    ov: ov!,
    d2Sms: d2Sms!,
    d2Web: d2Web!,
    d2Month: d2Month!,
    weekly: weekly!,
    monthly: monthly!,
    person,
  };
}

/** A C2B payment nobody can be matched to (a masked MSISDN, an unknown account), stored unclaimed. */
export async function unclaimedPayment(t: TestApp, over: Record<string, unknown> = {}) {
  const body = c2b({ BillRefNumber: 'WHO', MSISDN: '2547 ***** 555', ...over });
  await confirm(t, body);
  return (await paymentByReceipt(t, body.TransID as string))!;
}

export type Reference = Awaited<ReturnType<typeof seedPeople>>;

/**
 * A test app with the reference people, an admin (boss@betdesk.test) and a staff member
 * (agent@betdesk.test, looking after nobody yet) signed in.
 */
export async function peopleWorld(): Promise<{ t: TestApp; ref: Reference; admin: string; staff: string; staffId: number }> {
  const t = await createTestApp();
  const ref = await seedPeople(t);
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  const staffId = await t.addUser({ email: 'agent@betdesk.test' });
  return { t, ref, admin: await t.tokenFor('boss@betdesk.test'), staff: await t.tokenFor('agent@betdesk.test'), staffId };
}

/**
 * The M-Pesa tests' usual world: an app on the fake Daraja (`env` as appWithFakeDaraja's), the
 * reference people, and an admin (boss@betdesk.test) signed in. Close it with closeDarajaWorld.
 */
export async function darajaWorld(env: Record<string, string>): Promise<{ t: TestApp; fake: FakeDaraja; ref: Reference; admin: string }> {
  const { t, fake } = await appWithFakeDaraja(env);
  const ref = await seedPeople(t);
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  return { t, fake, ref, admin: await t.tokenFor('boss@betdesk.test') };
}

/**
 * A Daraja world whose paybill confirms to the test app (the fake's C2B URL set) with M-Pesa Ratiba
 * on and the job nudges off: the set-up of the tests of purchases, renewals, trials and pauses.
 */
export async function ratibaWorld(shortcode = '174379'): Promise<{ t: TestApp; fake: FakeDaraja; ref: Reference; admin: string }> {
  const world = await darajaWorld({ MPESA_SHORTCODE: shortcode, MPESA_PASSKEY: SANDBOX_PASSKEY });
  world.t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  world.fake.c2bConfirmationUrl = `https://betdesk.example.com/api/hooks/c2b/confirmation/${SECRET}`;
  await world.t.deps.db.execute(sql`update settings set value = 'true'::jsonb where key = 'mpesa_ratiba_enabled'`);
  return world;
}

export async function closeDarajaWorld(world: { t: TestApp; fake: FakeDaraja }): Promise<void> {
  await world.t.close();
  await world.fake.close();
}
