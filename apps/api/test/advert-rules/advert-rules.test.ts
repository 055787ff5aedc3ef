import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { broadcasts, promotionRefusals, smsMessages } from '../../src/db/schema/index.ts';
import { BANNED_CLAIMS, CLAIM_RULES, bannedClaimsIn } from '../../src/modules/advert-rules/service.ts';
import { runSubscriptionExpiry } from '../../src/modules/subscriptions/expiry.ts';
import { customerTexts, editableTexts } from '../../src/customer-texts/catalogue.ts';
import { giveMarketingConsent, type TestApp } from '../helpers.ts';
import { addTipsSubscriber, tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

// Issue 49, item 3 (decision 061): promotional texts end with the responsible-gambling lines, counted
// in their parts and cost, and a text holding a banned claim is refused (broadcast and template),
// the refusal kept for Reports → Promotions blocked; the setting `rg_promotion_rules` off stops it all.
let t: TestApp;
let ref: TipsReference;
let admin: string;
const phones = ['254733000001', '254733000002'];
const EN_LINES = '18+. Gambling is addictive. Play responsibly.';
const SW_LINES = '18+. Kamari ni uraibu. Cheza kwa uwajibikaji.';

const audience = () => ({ segment: 'category-active', bet_category_id: ref.d2 });
const preview = (message: string, extra: Record<string, unknown> = {}) =>
  t.as(admin, { method: 'POST', url: '/api/broadcasts/preview', payload: { ...audience(), message, ...extra } });
let keys = 0;
const send = (message: string, extra: Record<string, unknown> = {}) =>
  t.as(admin, {
    method: 'POST',
    url: '/api/broadcasts/send',
    payload: { ...audience(), message, idempotency_key: `advert-key-${(keys += 1)}-0000`, ...extra },
  });
const saveSetting = (key: string, value: unknown, reason?: string) =>
  t.as(admin, { method: 'POST', url: '/api/settings/update', payload: { key, value, ...(reason ? { reason } : {}) } });
const broadcastTexts = async () => (await t.deps.db.select().from(smsMessages)).filter((m) => m.intent === 'broadcast');
const refusals = async () => (await t.deps.db.select().from(promotionRefusals)).length;

beforeAll(async () => {
  ({ t, ref, admin } = await tipsApp());
  t.deps.jobs = { nudge: async () => {}, stop: async () => {} };
  for (const phone of phones) await addTipsSubscriber(t.deps.db, ref, phone, 'sms', ref.d2);
  await giveMarketingConsent(t, ...phones);
});
afterAll(() => t.close());

describe('the banned-claim list', () => {
  it('finds every entry in its example, naming the words as the text holds them', () => {
    for (const claim of BANNED_CLAIMS) {
      const found = bannedClaimsIn(claim.example);
      expect(found.map((f) => f.word), claim.word).toContain(claim.pattern.exec(claim.example)![0]);
      expect(found.find((f) => f.word === claim.pattern.exec(claim.example)![0])?.rule).toBe(CLAIM_RULES[claim.rule]);
    }
  });

  it('finds nothing in an honest offer or in any text of the catalogue', () => {
    expect(bannedClaimsIn('Weekend tips for D2 are ready: KES 50 a day. Reply D2 for prices.')).toEqual([]);
    expect(bannedClaimsIn('Tips za wikendi za D2 ziko tayari: KES 50 kwa siku. Tuma D2 upate bei.')).toEqual([]);
    // Whole words only: "guaranteed" is found, "incomes" too, but not "Outcome" or "investigate".
    expect(bannedClaimsIn('Outcome of the match: we investigate every fixture.')).toEqual([]);
    for (const [id, text] of Object.entries(customerTexts)) {
      expect(bannedClaimsIn(text.en), `${id} (en)`).toEqual([]);
      expect(bannedClaimsIn(text.sw), `${id} (sw)`).toEqual([]);
    }
  });
});

describe('a broadcast with the rules on', () => {
  it('previews the text with the lines in its language, counted in the parts and the cost', async () => {
    // 120 characters + the opt-out line fit one part; with the lines they make two.
    const message = `Weekend tips are ready. ${'x'.repeat(96)}`;
    const res = await preview(message);
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({ recipients: 2, blocked: [], appended: EN_LINES, parts: 2, estimated_parts: 4, estimated_cost: 3.2 });
    expect(p.message).toBe(`${message} ${EN_LINES} STOP*456*9*5#`);

    const sw = (await preview('Tips za wikendi ziko tayari.', { language: 'sw' })).json();
    expect(sw).toMatchObject({ appended: SW_LINES, parts: 1, estimated_cost: 1.6 });
    expect(sw.message).toBe(`Tips za wikendi ziko tayari. ${SW_LINES} STOP*456*9*5#`);
  });

  it('lists the banned claims in the preview, and refuses to send it: 422 on message naming the words, nothing queued', async () => {
    const p = (await preview('Guaranteed income every weekend!')).json();
    expect(p.blocked).toEqual([
      { word: 'income', rule: CLAIM_RULES.income },
      { word: 'Guaranteed', rule: CLAIM_RULES.certainty },
    ]);
    const before = await refusals();
    const res = await send('Guaranteed income every weekend!');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.message[0]).toContain('"income"');
    expect(res.json().errors.message[0]).toContain('"Guaranteed"');
    expect(await broadcastTexts()).toHaveLength(0);
    expect(await t.deps.db.select().from(broadcasts)).toHaveLength(0);
    expect(await refusals()).toBe(before + 1);
  });

  it('sends a clean text with its lines, and keeps its language and advert approval reference in its record', async () => {
    const res = await send('Weekend tips are ready.', { language: 'en', approval_reference: 'BCLB/ADV/2025/0142' });
    expect(res.statusCode).toBe(200);
    expect(res.json().broadcast).toMatchObject({
      message: `Weekend tips are ready. ${EN_LINES}`,
      language: 'en',
      approval_reference: 'BCLB/ADV/2025/0142',
      recipients: 2,
    });
    const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.broadcastId, res.json().broadcast.id));
    expect(queued.map((m) => m.body)).toEqual([`Weekend tips are ready. ${EN_LINES} STOP*456*9*5#`, `Weekend tips are ready. ${EN_LINES} STOP*456*9*5#`]);
    const list = (await t.as(admin, { method: 'GET', url: '/api/broadcasts' })).json();
    expect(list.broadcasts[0]).toMatchObject({ approval_reference: 'BCLB/ADV/2025/0142', language: 'en' });
  });

  it('sends the lines at the end of the renewal reminder', async () => {
    const phone = '254733000010';
    const subscriberId = await addTipsSubscriber(t.deps.db, ref, phone, 'sms', ref.d2);
    await t.deps.db.execute(sql`update subscriptions set expires_at = now() + interval '12 hours' where subscriber_id = ${subscriberId}`);
    await runSubscriptionExpiry(t.deps.db);
    const [reminder] = await t.deps.db.select().from(smsMessages).where(sql`${smsMessages.recipient} = ${phone} and ${smsMessages.intent} = 'subscription.reminder'`);
    expect(reminder!.body).toMatch(/^Hi Subscriber 254733000010, your .+ subscription expires on .+\. Renew by M-Pesa to keep receiving it\. 18\+\. Gambling is addictive\. Play responsibly\.$/);
  });
});

describe.each(BANNED_CLAIMS.map((c) => [`${c.word} (${c.language})`, c] as const))('the banned claim %s', (_name, claim) => {
  const words = () => claim.pattern.exec(claim.example)![0];

  it('refuses a broadcast holding it, naming the words', async () => {
    const res = await send(claim.example, { language: claim.language });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.message[0]).toContain(`"${words()}"`);
    expect(res.json().errors.message[0]).toContain(CLAIM_RULES[claim.rule]);
  });

  it('refuses a template holding it when saved, naming the words', async () => {
    const key = claim.language === 'en' ? 'subscription_reminder_sms' : 'subscription_reminder_sms_sw';
    const res = await saveSetting(key, `${editableTexts.subscription_reminder_sms[claim.language]} ${claim.example}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.value[0]).toContain(`"${words()}"`);
  });
});

describe('other texts a customer reads', () => {
  it("refuses the portal's description holding a banned claim; a receipt template too, since any may carry an offer", async () => {
    const portal = await saveSetting('portal_description_sw', 'Tips za uhakika: mapato ya kila siku.');
    expect(portal.statusCode).toBe(422);
    expect(portal.json().errors.value[0]).toContain('"mapato"');
    const receipt = await saveSetting('tips_receipt_sms', `${editableTexts.tips_receipt_sms.en} Your salary starts today!`);
    expect(receipt.statusCode).toBe(422);
    expect(receipt.json().errors.value[0]).toContain('"salary"');
    expect((await saveSetting('portal_description', 'Daily football tips, checked by our analysts.')).statusCode).toBe(200);
  });
});

describe('Reports → Promotions blocked', () => {
  it('lists each refused send and save with its words and rule, newest first, and counts per rule', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/reports/promotions-blocked' });
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report.total).toBe(1 + 2 * BANNED_CLAIMS.length + 2);
    expect(report.rows[0]).toMatchObject({ source: 'template', target: 'tips_receipt_sms', language: 'en', created_by: expect.any(String) });
    expect(report.rows[1]).toMatchObject({ source: 'template', target: 'portal_description_sw', language: 'sw' });
    expect(report.rows.at(-1)).toMatchObject({
      source: 'broadcast',
      target: 'category-active',
      language: 'en',
      message: 'Guaranteed income every weekend!',
      blocked: [
        { word: 'income', rule: CLAIM_RULES.income },
        { word: 'Guaranteed', rule: CLAIM_RULES.certainty },
      ],
    });
    expect(report.by_rule.map((r: { rule: string }) => r.rule).sort()).toEqual(Object.values(CLAIM_RULES).sort());

    const csv = await t.as(admin, { method: 'GET', url: '/api/reports/promotions-blocked/export' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\n')[0]).toContain('Words');
    expect(csv.body).toContain('Guaranteed income every weekend!');
  });

  it('is for admins who see reports: a staff member is refused', async () => {
    await t.addUser({ email: 'clerk@tips.test' });
    const clerk = await t.tokenFor('clerk@tips.test');
    expect((await t.as(clerk, { method: 'GET', url: '/api/reports/promotions-blocked' })).statusCode).toBe(403);
  });
});

describe('with rg_promotion_rules off', () => {
  it('appends nothing and blocks nothing: preview, send, template; turned on again, a template saved meanwhile is not sent', async () => {
    expect((await saveSetting('rg_promotion_rules', false, 'Counsel says a tips seller is not an operator')).statusCode).toBe(200);
    const before = await refusals();

    const p = (await preview('Guaranteed income every weekend!')).json();
    expect(p).toMatchObject({ blocked: [], appended: '', message: 'Guaranteed income every weekend! STOP*456*9*5#' });
    const sent = await send('Guaranteed income every weekend!');
    expect(sent.statusCode).toBe(200);
    expect(sent.json().broadcast.message).toBe('Guaranteed income every weekend!');
    const template = 'Hi {name}, your {package} tips end on {expiry}. Guaranteed income: renew now.';
    expect((await saveSetting('subscription_reminder_sms', template)).statusCode).toBe(200);
    expect(await refusals()).toBe(before);

    const off = '254733000020';
    const offId = await addTipsSubscriber(t.deps.db, ref, off, 'sms', ref.d2);
    await t.deps.db.execute(sql`update subscriptions set expires_at = now() + interval '12 hours' where subscriber_id = ${offId}`);
    await runSubscriptionExpiry(t.deps.db);
    const [offReminder] = await t.deps.db.select().from(smsMessages).where(sql`${smsMessages.recipient} = ${off} and ${smsMessages.intent} = 'subscription.reminder'`);
    expect(offReminder!.body).toMatch(/Guaranteed income: renew now\.$/);

    // On again: the reminder leaves in the catalogue's wording, with its lines.
    expect((await saveSetting('rg_promotion_rules', true)).statusCode).toBe(200);
    const on = '254733000021';
    const onId = await addTipsSubscriber(t.deps.db, ref, on, 'sms', ref.d2);
    await t.deps.db.execute(sql`update subscriptions set expires_at = now() + interval '12 hours' where subscriber_id = ${onId}`);
    await runSubscriptionExpiry(t.deps.db);
    const [onReminder] = await t.deps.db.select().from(smsMessages).where(sql`${smsMessages.recipient} = ${on} and ${smsMessages.intent} = 'subscription.reminder'`);
    expect(onReminder!.body).not.toContain('Guaranteed');
    expect(onReminder!.body).toMatch(/Renew by M-Pesa to keep receiving it\. 18\+\. Gambling is addictive\. Play responsibly\.$/);
  });
});
