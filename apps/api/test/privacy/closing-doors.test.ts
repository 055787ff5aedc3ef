import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { PORTAL_COOKIE, privacyTexts, SECRET_SMS_TEXTS } from '@betdesk/contract';
import { rows } from '../../src/db/rows.ts';
import { bets, bonusPayments, bonuses, marketingConsents, portalCodes, portalSessions, smsInbound, smsMessages } from '../../src/db/schema/index.ts';
import { postLedgerEntry } from '../../src/modules/ledger/service.ts';
import { runRetention } from '../../src/modules/privacy/service.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { SECRET, seedPeople } from '../mpesa/fixtures.ts';

/**
 * Issue 27, items 1-5: a sign-in code is never readable by staff, erasure closes every door the
 * person had (portal, consent, messages), the subject export is whole and readable, and retention
 * empties received texts as it does sent ones.
 */

const DAY = 86_400_000;
const CODE_HIDDEN = SECRET_SMS_TEXTS['portal.sign-in-code']!;
let t: TestApp;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  ref = await seedPeople(t);
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@betdesk.test');
});
afterAll(() => t.close());

let ipSeq = 0;
const requestCode = (local: string) =>
  t.app.inject({ method: 'POST', url: '/api/portal/auth/request-code', payload: { phone: local }, remoteAddress: `10.7.0.${(ipSeq += 1)}` });

/** The code as the gateway would send it: the outbox row, read as the dispatcher does (not as staff do). */
async function codeQueuedFor(e164: string): Promise<string> {
  const [sms] = await t.deps.db
    .select({ body: smsMessages.body })
    .from(smsMessages)
    .where(and(eq(smsMessages.recipient, e164), eq(smsMessages.intent, 'portal.sign-in-code')))
    .orderBy(desc(smsMessages.id))
    .limit(1);
  return sms!.body.match(/\b(\d{6})\b/)![1]!;
}

async function signIn(local: string): Promise<string> {
  expect((await requestCode(local)).statusCode).toBe(200);
  const code = await codeQueuedFor(`254${local.slice(1)}`);
  const res = await t.app.inject({ method: 'POST', url: '/api/portal/auth/verify', payload: { phone: local, code } });
  expect(res.statusCode).toBe(200);
  return `${PORTAL_COOKIE}=${res.cookies.find((c) => c.name === PORTAL_COOKIE)!.value}`;
}

const inbound = (from: string, text: string, id: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/hooks/sms/inbound/${SECRET}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ from, to: '22384', text, id }).toString(),
  });

const subjectOf = async (local: string) => {
  const res = await t.as(admin, { method: 'GET', url: `/api/privacy/subject?phone=${local}` });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('a portal sign-in code is for the subscriber only', () => {
  it('shows staff only that a code was sent: person page, SMS log, message detail and subject export', async () => {
    const subscriber = await ref.person('subscriber', 'Code Reader', '254741000001');
    await signIn('0741000001');
    const code = await codeQueuedFor('254741000001');

    const page = await t.as(admin, { method: 'GET', url: `/api/sms/subscriber-messages?subscriber_id=${subscriber}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(code);
    const [shown] = page.json().messages as { id: number; message: string }[];
    expect(shown!.message).toBe(CODE_HIDDEN);

    const log = await t.as(admin, { method: 'GET', url: '/api/sms/log?perPage=100' });
    expect(log.statusCode).toBe(200);
    expect(log.body).not.toContain(code);
    const detail = await t.as(admin, { method: 'GET', url: `/api/sms/log/show?id=${shown!.id}` });
    expect(detail.json().message.message).toBe(CODE_HIDDEN);

    const subject = await subjectOf('0741000001');
    expect(JSON.stringify(subject)).not.toContain(code);
    expect(subject.sms_sent).toMatchObject([{ intent: 'portal.sign-in-code', text: CODE_HIDDEN }]);

    // Nor can an admin have it sent again (its text is not kept once sent).
    await t.deps.db.update(smsMessages).set({ status: 'failed' }).where(eq(smsMessages.id, shown!.id));
    expect((await t.as(admin, { method: 'POST', url: '/api/sms/resend', payload: { id: shown!.id } })).statusCode).toBe(409);
  });
});

describe('erasure closes every door', () => {
  it("ends the erased phone's portal session, removes its sign-ins and refuses a new code, consent or message", async () => {
    const clientId = await ref.person('client', 'Signed In Person', '254741000002');
    const cookie = await signIn('0741000002');
    expect((await t.app.inject({ method: 'GET', url: '/api/portal/me', headers: { cookie } })).statusCode).toBe(200);

    const erased = await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: '0741000002', reason: 'Asked in person' } });
    expect(erased.statusCode).toBe(200);

    expect((await t.app.inject({ method: 'GET', url: '/api/portal/me', headers: { cookie } })).statusCode).toBe(401);
    const offers = await t.app.inject({ method: 'POST', url: '/portal/offers', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'offers=yes' });
    expect(offers.statusCode).not.toBe(200);
    expect(await t.deps.db.select().from(portalSessions).where(eq(portalSessions.phone, '254741000002'))).toEqual([]);
    expect(await t.deps.db.select().from(portalCodes).where(eq(portalCodes.phone, '254741000002'))).toEqual([]);

    const again = await requestCode('0741000002');
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.phone[0]).toContain('erased');
    expect(await t.deps.db.select().from(portalCodes).where(eq(portalCodes.phone, '254741000002'))).toEqual([]);

    const consent = await t.as(admin, { method: 'POST', url: '/api/privacy/consent', payload: { phone: '0741000002', given: true, note: 'Said yes on the phone' } });
    expect(consent.statusCode).toBe(422);
    expect(consent.json().errors.phone).toEqual([privacyTexts.phoneErased]);
    expect((await inbound('+254741000002', 'YES', 'ATin-erased-yes')).statusCode).toBe(200);
    expect(await t.deps.db.select().from(marketingConsents).where(eq(marketingConsents.phone, '254741000002'))).toEqual([]);
    const kept = await t.deps.db.select().from(smsInbound).where(eq(smsInbound.providerId, 'ATin-erased-yes'));
    expect(kept).toMatchObject([{ phone: 'erased', text: '[erased]' }]);

    const before = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'client.message'));
    const message = await t.as(admin, { method: 'POST', url: '/api/messages', payload: { id: clientId, message: 'Your bonus is ready' } });
    expect(message.statusCode).toBe(422);
    expect(message.json().errors.id).toEqual([privacyTexts.clientErased]);
    expect(await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'client.message'))).toEqual(before);
  });

  it('answers an erased phone on USSD with an END screen and records nothing', async () => {
    await t.as(admin, { method: 'POST', url: '/api/privacy/erase', payload: { phone: '0741000005', reason: 'Asked by letter' } });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/hooks/ussd/${SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ sessionId: 'ATUid_erased', phoneNumber: '+254741000005', text: '3*1' }).toString(),
    });
    expect(res.body).toMatch(/^END .*erased/);
  });
});

describe("a person's export", () => {
  it('holds their portal sign-ins and, for a Bet4Me client, bets, bonuses, bonus payments and ledger entries, with KES beside the cents', async () => {
    const clientId = await ref.person('client', 'Bet Four Me', '254741000003');
    await signIn('0741000003');
    const [bet] = await t.deps.db
      .insert(bets)
      .values({ clientId, stakeCents: 100_000, description: 'Arsenal to win', status: 'closed', profitCents: -100_050 })
      .returning({ id: bets.id });
    await t.deps.db.insert(bonuses).values({ betId: bet!.id, clientId, amountCents: 15_005, ratePercent: 30 });
    await t.deps.db.insert(bonusPayments).values({ clientId, amountCents: 5_000, description: 'Cash at the office', source: 'manual' });
    await postLedgerEntry(t.deps.db, { holder: { clientId }, amountCents: 250_000, kind: 'payment' });

    const subject = await subjectOf('0741000003');
    expect(subject.about.export).toContain('Kenya shillings');
    expect(Object.keys(subject.about.sections)).toEqual(expect.arrayContaining(['portal_sign_ins', 'portal_codes', 'bets', 'bonuses', 'bonus_payments', 'ledger']));
    expect(subject.portal_sign_ins).toHaveLength(1);
    expect(subject.portal_sign_ins[0]).toMatchObject({ signed_out_at: null });
    expect(subject.portal_codes).toMatchObject([{ wrong_tries: 0 }]);
    expect(subject.portal_codes[0].used_at).not.toBeNull();
    expect(JSON.stringify(subject.portal_codes)).not.toMatch(/hash/);
    expect(subject.bets).toMatchObject([{ stake_cents: 100_000, stake_kes: '1000.00', profit_cents: -100_050, profit_kes: '-1000.50', description: 'Arsenal to win' }]);
    expect(subject.bonuses).toMatchObject([{ amount_cents: 15_005, amount_kes: '150.05', paid_cents: 0, paid_kes: '0.00' }]);
    expect(subject.bonus_payments).toMatchObject([{ amount_cents: 5_000, amount_kes: '50.00', source: 'manual' }]);
    expect(subject.ledger).toMatchObject([{ kind: 'payment', amount_cents: 250_000, amount_kes: '2500.00' }]);
    expect(subject.clients).toMatchObject([{ id: clientId, maximum_stake_cents: null, maximum_stake_kes: null }]);
  });
});

describe('retention', () => {
  it('empties the texts of received SMS older than the retention period, audited and counted like sent ones', async () => {
    expect((await inbound('+254741000004', 'What are todays odds please', 'ATin-old-question')).statusCode).toBe(200);
    const report = await runRetention(t.deps.db, new Date(Date.now() + 800 * DAY));
    expect(report.received_sms_texts_emptied).toBeGreaterThanOrEqual(1);
    expect(report.sms_texts_emptied).toBe(report.sent_sms_texts_emptied + report.received_sms_texts_emptied);
    const [question] = await t.deps.db.select().from(smsInbound).where(eq(smsInbound.providerId, 'ATin-old-question'));
    expect(question).toMatchObject({ text: '', phone: expect.any(String) });
    const [audited] = await rows<{ after: { received_sms_texts_emptied: number } }>(
      t.deps.db,
      sql`select after from audit_log where action = 'privacy.retention' order by id desc limit 1`,
    );
    expect(audited!.after.received_sms_texts_emptied).toBe(report.received_sms_texts_emptied);
  });
});
