import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, bonuses } from '../../src/db/schema/index.ts';
import { getSetting } from '../../src/modules/settings/service.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { addClient, people } from '../clients/fixtures.ts';

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;

beforeAll(async () => {
  t = await createTestApp();
  p = await people(t);
});
afterAll(() => t.close());

const list = (token: string | null) => t.as(token, { method: 'GET', url: '/api/settings' });
const update = (token: string | null, payload: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/settings/update', payload });

describe('GET /api/settings', () => {
  it('lists every setting with its seeded default and description', async () => {
    const res = await list(p.admin);
    expect(res.statusCode).toBe(200);
    const rate = res.json().settings.find((s: { key: string }) => s.key === 'bonus_rate_percent');
    expect(rate).toMatchObject({ value: 30, updated_by_name: null });
    expect(rate.description).toMatch(/bonus/);
    expect(typeof rate.updated_at).toBe('string');
    expect(Object.keys(rate).sort()).toEqual(['description', 'key', 'reason', 'safeguard', 'sms', 'updated_at', 'updated_by_name', 'value']);
  });

  it('marks the settings that are SMS texts, for the composer', async () => {
    const settings: { key: string; sms: boolean }[] = (await list(p.admin)).json().settings;
    const sms = (key: string) => settings.find((s) => s.key === key)?.sms;
    expect([sms('tips_receipt_sms'), sms('tips_receipt_sms_sw'), sms('sms_opt_out_text'), sms('temporary_password_sms')]).toEqual([true, true, true, true]);
    expect([sms('bonus_rate_percent'), sms('portal_business_name')]).toEqual([false, false]);
  });
});

describe('POST /api/settings/update', () => {
  it('saves a number as a number, names who changed it and audits before and after', async () => {
    const res = await update(p.admin, { key: 'login_window_minutes', value: '20' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: 'Setting saved successfully' });
    expect(await getSetting(t.deps.db, 'login_window_minutes')).toBe(20);
    const shown = (await list(p.admin)).json().settings.find((s: { key: string }) => s.key === 'login_window_minutes');
    expect(shown).toMatchObject({ value: 20, updated_by_name: 'Grace Admin' });
    const [row] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'setting.update'), eq(auditLog.entityId, 'login_window_minutes')));
    expect(row).toMatchObject({ actorUserId: p.adminId, entity: 'setting', before: { value: 15 }, after: { value: 20 } });
  });

  it('saves texts that keep their placeholders and switches as booleans', async () => {
    const text = 'Karibu {name}! Sign in as {email} with {password} and change it.';
    expect((await update(p.admin, { key: 'temporary_password_sms', value: text })).statusCode).toBe(200);
    expect(await getSetting(t.deps.db, 'temporary_password_sms')).toBe(text);
    expect((await update(p.admin, { key: 'mpesa_validate_account', value: true })).statusCode).toBe(200);
    expect(await getSetting(t.deps.db, 'mpesa_validate_account')).toBe(true);
  });

  it.each([
    ['a rate above 100 %', 'bonus_rate_percent', 101, /between 0 and 100/],
    ['a negative rate', 'bonus_rate_percent', -1, /between 0 and 100/],
    ['a rate that is not a number', 'bonus_rate_percent', 'thirty', /must be a number/],
    ['a blank number', 'bonus_rate_percent', '', /number is required/],
    ['a fractional count', 'login_max_failures_per_email', 2.5, /whole number/],
    ['a text for a switch', 'mpesa_validate_account', 'maybe', /on \(true\) or off \(false\)/],
    ['a blank text', 'temporary_password_sms', '   ', /text is required/],
    ['a text without its placeholders', 'subscription_reminder_sms', 'Hi {name}, renew now.', /\{package\}, \{expiry\}/],
    ['no value at all', 'temporary_password_sms', null, /value is required/],
  ])('refuses %s with a 422 naming value', async (_what, key, value, message) => {
    const res = await update(p.admin, { key, value });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['value']);
    expect(res.json().errors.value[0]).toMatch(message);
  });

  it('refuses an unknown key, naming the key', async () => {
    const res = await update(p.admin, { key: 'free_money', value: 1 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['key']);
  });

  it('is for admins only', async () => {
    expect((await update(p.staff, { key: 'bonus_rate_percent', value: 50 })).statusCode).toBe(403);
    expect((await list(p.staff)).statusCode).toBe(403);
    expect((await update(null, { key: 'bonus_rate_percent', value: 50 })).statusCode).toBe(401);
    expect((await list(null)).statusCode).toBe(401);
    expect(await getSetting(t.deps.db, 'bonus_rate_percent')).toBe(30);
  });

  it('uses the new bonus rate for the next bonus', async () => {
    const client = await addClient(t.deps.db, { name: 'Brian Mwangi', staffId: p.staffId });
    expect((await update(p.admin, { key: 'bonus_rate_percent', value: 40 })).statusCode).toBe(200);
    const opened = await t.as(p.admin, {
      method: 'POST',
      url: '/api/bets/save',
      payload: { client_id: client, stake: 1000, description: 'Gor Mahia to win' },
    });
    const betId = opened.json().bet_id as number;
    const closed = await t.as(p.admin, { method: 'POST', url: '/api/bets/update', payload: { bet_id: betId, profit: 1000 } });
    expect(closed.json()).toMatchObject({ bonus: 400 });
    const [bonus] = await t.deps.db.select().from(bonuses).where(eq(bonuses.betId, betId));
    expect(bonus).toMatchObject({ amountCents: 40_000, ratePercent: 40 });
  });
});

describe('safeguards for customers (decision 065)', () => {
  const shown = async (key: string) => (await list(p.admin)).json().settings.find((s: { key: string }) => s.key === key);

  it('are on by default and marked as safeguards', async () => {
    for (const key of ['rg_self_exclusion', 'rg_under_18_block', 'rg_age_gate', 'rg_promotion_rules']) {
      expect(await shown(key)).toMatchObject({ value: true, safeguard: true, reason: null });
    }
    expect(await shown('mpesa_validate_account')).toMatchObject({ safeguard: false });
  });

  it('are turned off only with a reason of 10 characters or more, named on `reason`, and nothing is written without one', async () => {
    for (const reason of [undefined, '', '  too short ']) {
      const res = await update(p.admin, { key: 'rg_promotion_rules', value: false, ...(reason === undefined ? {} : { reason }) });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['reason']);
      expect(res.json().errors.reason[0]).toMatch(/at least 10 characters/);
    }
    expect(await getSetting(t.deps.db, 'rg_promotion_rules')).toBe(true);
  });

  it('keep the reason beside the value and in the audit log, and clear it when turned on again', async () => {
    const reason = 'Counsel says tips adverts are not gambling adverts (letter of 1 Dec)';
    expect((await update(p.admin, { key: 'rg_promotion_rules', value: false, reason })).statusCode).toBe(200);
    expect(await shown('rg_promotion_rules')).toMatchObject({ value: false, reason, updated_by_name: 'Grace Admin' });
    const rows = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'setting.update'), eq(auditLog.entityId, 'rg_promotion_rules')));
    expect(rows.map((r) => r.after)).toEqual([{ value: false, reason }]);

    expect((await update(p.admin, { key: 'rg_promotion_rules', value: true, reason: 'ignored when on' })).statusCode).toBe(200);
    expect(await shown('rg_promotion_rules')).toMatchObject({ value: true, reason: null });
  });

  it('cannot be changed by staff', async () => {
    const res = await update(p.staff, { key: 'rg_self_exclusion', value: false, reason: 'I would like to sell more' });
    expect(res.statusCode).toBe(403);
    expect(await getSetting(t.deps.db, 'rg_self_exclusion')).toBe(true);
  });
});
