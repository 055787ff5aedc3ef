import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { nairobiDayOf } from '@betdesk/contract';
import { auditLog, ledgerEntries, standingOrders, subscriptions, taxInvoices, tipsSubscribers, trialUses } from '../../src/db/schema/index.ts';
import type { FakeDaraja } from '../../src/integrations/mpesa/fake-daraja.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { subscriptionsMade } from '../../src/modules/reports/queries.ts';
import { startTrial, trialFigures, trialOffer } from '../../src/modules/trials/service.ts';
import { signInToPortal, type TestApp } from '../helpers.ts';
import { declaredAdult, ratibaWorld, closeDarajaWorld, type Reference } from '../mpesa/fixtures.ts';

let t: TestApp;
let fake: FakeDaraja;
let ref: Reference;
let admin: string;
let phoneNo = 711000700;

beforeAll(async () => {
  ({ t, fake, ref, admin } = await ratibaWorld());
});
afterAll(() => closeDarajaWorld({ t, fake }));

/** A phone that never bought anything, declared 18+ and signed in to the portal. */
async function newcomer() {
  phoneNo += 1;
  const phone = `254${phoneNo}`;
  await declaredAdult(t, phone);
  const local = `0${phone.slice(3)}`;
  return { phone, local, cookie: await signInToPortal(t, local, '127.0.0.1') };
}
type Punter = Awaited<ReturnType<typeof newcomer>>;

const startOnPortal = (p: Punter, packageId: number, autoRenew: boolean) =>
  t.app.inject({ method: 'POST', url: '/api/portal/trials', headers: { cookie: p.cookie }, payload: { package_id: packageId, auto_renew: autoRenew } });
const setTrial = (packageId: number, days: number, needsAutoRenew: boolean) =>
  t.as(admin, { method: 'POST', url: '/api/tips/prices/trial', payload: { bet_category_price_id: packageId, trial_days: days, trial_needs_auto_renew: needsAutoRenew } });
const subscriberOf = async (phone: string) => (await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone)))[0]!;
const subscriptionsOf = async (phone: string) =>
  t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, (await subscriberOf(phone)).id)).orderBy(subscriptions.id);

describe('free trials of a package', () => {
  it('lets an admin set a package trial, audited; only a renewable package may ask for automatic renewal', async () => {
    expect((await setTrial(ref.d2Sms.id, 3, true)).json()).toEqual({ info: 'Trial saved successfully' });
    const listed = (await t.as(admin, { method: 'GET', url: '/api/tips/prices/trials' })).json().packages;
    expect(listed).toContainEqual({ id: ref.d2Sms.id, trial_days: 3, trial_needs_auto_renew: true });
    const [row] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'price-package.trial'), eq(auditLog.entityId, String(ref.d2Sms.id))));
    expect(row).toMatchObject({ before: { trial_days: 0, trial_needs_auto_renew: false }, after: { trial_days: 3, trial_needs_auto_renew: true } });
    const tooLong = await setTrial(ref.d2Sms.id, 32, true);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors).toHaveProperty('trial_days');
  });

  it('converts a trial through Ratiba: amount 0 and no invoice, the standing order debits first the day the trial ends, and its run converts the trial', async () => {
    await setTrial(ref.d2Sms.id, 3, true);
    const p = await newcomer();
    const offered = (await t.app.inject({ method: 'GET', url: `/portal/packages/${ref.d2Sms.id}`, headers: { cookie: p.cookie } })).body;
    expect(offered).toContain('data-trial');
    expect(offered).toContain('Start a free trial');

    // The package offers its trial only with automatic renewal.
    const without = await startOnPortal(p, ref.d2Sms.id, false);
    expect(without.statusCode).toBe(422);
    expect(without.json().errors.auto_renew).toEqual(['This free trial comes only with automatic renewal: tick Renew automatically after the trial.']);

    const started = await startOnPortal(p, ref.d2Sms.id, true);
    expect(started.statusCode).toBe(200);
    expect(started.json().info).toMatch(/^Your free trial of Daily 2 Odds SMS weekly has started/);
    const trial = started.json().trial;
    const [sub] = await subscriptionsOf(p.phone);
    expect(sub).toMatchObject({ id: trial.subscription_id, source: 'trial', amountCents: 0, durationDays: 3, packageId: ref.d2Sms.id });
    expect(sub!.expiresAt.getTime() - sub!.startsAt.getTime()).toBe(3 * 86_400_000);
    // Not a sale: nothing on the ledger, no tax invoice, no purchase in the reports.
    expect(await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.subscriptionId, sub!.id))).toHaveLength(0);
    expect(await t.deps.db.select().from(taxInvoices).where(eq(taxInvoices.subscriptionId, sub!.id))).toHaveLength(0);

    // The standing order's first debit is the day the trial ends, for the package price.
    const firstDebit = nairobiDayOf(sub!.expiresAt);
    expect(trial.standing_order).toMatchObject({ status: 'pending', next_date: firstDebit, amount: 100, frequency: 'weekly' });
    expect(fake.ratibaRequests.at(-1)).toMatchObject({ PartyA: p.phone, Amount: '100', AccountReference: 'D2', Frequency: '3', StartDate: firstDebit.replace(/-/g, '') });
    const [use] = await t.deps.db.select().from(trialUses).where(eq(trialUses.subscriptionId, sub!.id));
    expect(use).toMatchObject({ packageId: ref.d2Sms.id, phoneHash: sha256Hex(p.phone), standingOrderId: trial.standing_order.id, convertedSubscriptionId: null });

    // Approved with the PIN, then the first run arrives as a paybill payment: the paid renewal converts the trial.
    await fake.settled();
    const [order] = await t.deps.db.select().from(standingOrders).where(eq(standingOrders.id, trial.standing_order.id));
    expect(order!.status).toBe('active');
    await fake.runStandingOrder(order!.responseRefId!, { transId: `TR${String(phoneNo).slice(-6)}R1` });
    const [, renewal] = await subscriptionsOf(p.phone);
    expect(renewal).toMatchObject({ source: 'ratiba', amountCents: 10_000 });
    expect(renewal!.startsAt.toISOString()).toBe(sub!.expiresAt.toISOString()); // the paid week starts when the trial ends
    const [converted] = await t.deps.db.select().from(trialUses).where(eq(trialUses.id, use!.id));
    expect(converted).toMatchObject({ convertedSubscriptionId: renewal!.id });
    expect(converted!.convertedAt).not.toBeNull();

    // Counted apart: the retention report shows the trial started and converted beside its figures.
    const today = nairobiDayOf(new Date());
    const report = (await t.as(admin, { method: 'GET', url: `/api/reports/retention?from=${today}&to=${today}&group=day` })).json();
    expect(report.trials.started).toBeGreaterThanOrEqual(1);
    expect(report.trials.converted).toBeGreaterThanOrEqual(1);
    const figures = await trialFigures(t.deps.db, { start: new Date(Date.now() - 3_600_000), end: new Date(Date.now() + 3_600_000) });
    expect(figures).toEqual({ started: report.trials.started, converted: report.trials.converted });

    // The paid week is the trial lever's sale (decision 091): KES 100 of income, no discount, and the trial
    // itself no sale of any lever.
    const byLever = (await t.as(admin, { method: 'GET', url: `/api/reports/retention?from=${today}&to=${today}&group=day&group_by=lever` })).json();
    const trialLever = byLever.groups.find((g: { key: string }) => g.key === 'trial');
    expect(trialLever?.lever_sales).toEqual({ sales: report.trials.converted, income: 100 * report.trials.converted, discount: 0, commission: 0 });
  });

  it('gives the trial once per phone and package', async () => {
    await setTrial(ref.d2Web.id, 2, false);
    const p = await newcomer();
    const today = nairobiDayOf(new Date());
    const madeToday = async () => (await subscriptionsMade(t.deps.db, { from: today, to: today }, 'day')).find((m) => m.bet_category_id === ref.d2.id)?.new ?? 0;
    const before = await madeToday();
    expect((await startOnPortal(p, ref.d2Web.id, false)).statusCode).toBe(200);
    // A trial is no purchase: the new subscribers of the category are as before.
    expect(await madeToday()).toBe(before);
    const again = await startOnPortal(p, ref.d2Web.id, false);
    expect(again.statusCode).toBe(409);
    expect(again.json().info).toBe('This number has already had the free trial of this package. You can buy it below.');
    expect(await t.deps.db.select().from(trialUses).where(eq(trialUses.phoneHash, sha256Hex(p.phone)))).toHaveLength(1);
    expect(await trialOffer(t.deps, ref.d2Web.id, p.phone)).toBeNull();
    const page = (await t.app.inject({ method: 'GET', url: `/portal/packages/${ref.d2Web.id}`, headers: { cookie: p.cookie } })).body;
    expect(page).not.toContain('data-trial');
  });

  it('offers and gives no trial to a self-excluded person', async () => {
    await setTrial(ref.d2Web.id, 2, false);
    const p = await newcomer();
    expect((await t.app.inject({ method: 'POST', url: '/api/portal/exclusion', headers: { cookie: p.cookie }, payload: { period: '90' } })).statusCode).toBe(200);
    expect(await trialOffer(t.deps, ref.d2Web.id, p.phone)).toBeNull();
    const refused = await startOnPortal(p, ref.d2Web.id, false);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().info).toBe('You have excluded yourself from gambling: no free trial can be started for this number.');
    expect(await t.deps.db.select().from(trialUses).where(eq(trialUses.phoneHash, sha256Hex(p.phone)))).toHaveLength(0);
  });

  it('offers and gives no trial to an erased phone', async () => {
    await setTrial(ref.d2Web.id, 2, false);
    const p = await newcomer();
    expect((await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: p.local, reason: 'Asked by phone' } })).statusCode).toBe(200);
    expect(await trialOffer(t.deps, ref.d2Web.id, p.phone)).toBeNull();
    await expect(startTrial(t.deps, { phone: p.phone, packageId: ref.d2Web.id, autoRenew: false, adult: true, requestId: 'test' })).rejects.toMatchObject({
      status: 409,
      info: 'The data of this number was erased at the request of its owner: no free trial can be started for it.',
    });
    expect(await t.deps.db.select().from(trialUses).where(eq(trialUses.phoneHash, sha256Hex(p.phone)))).toHaveLength(0);
  });
});
