import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays, addMonths, nairobiDayOf } from '@betdesk/contract';
import { rows } from '../../src/db/rows.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { people } from '../clients/fixtures.ts';

// The compliance calendar of issue 49 (decision 060).

let t: TestApp;
let p: Awaited<ReturnType<typeof people>>;

beforeAll(async () => {
  t = await createTestApp({
    env: { SMS_PROVIDER: 'africastalking', AT_USERNAME: 'betdesk', AT_API_KEY: 'key', AT_SENDER_ID: 'BETDESK', AT_SENDER_ID_PROMO: 'BETDESKPRO', MPESA_SHORTCODE: '654321' },
  });
  p = await people(t);
});
afterAll(() => t.close());

const today = () => nairobiDayOf(new Date());
const calendar = async (token = p.admin) => {
  const res = await t.as(token, { method: 'GET', url: '/api/compliance/calendar' });
  expect(res.statusCode).toBe(200);
  return res.json() as { today: string; alerts: number; items: { key: string; status: string; expires_on: string | null; remind_from: string | null; label: string; value: string | null; updated_by: string | null }[] };
};
const item = async (key: string) => (await calendar()).items.find((i) => i.key === key)!;
const put = (key: string, payload: Record<string, unknown>, token = p.admin) =>
  t.as(token, { method: 'PUT', url: `/api/compliance/items/${encodeURIComponent(key)}`, payload });

describe('the compliance calendar', () => {
  it('lists every item, missing until recorded: ODPC, the DPO, each sender id per operator, the paybill name, counsel on tips and Bet4Me', async () => {
    const c = await calendar();
    expect(c.items.map((i) => i.key)).toEqual([
      'odpc_registration',
      'dpo',
      'paybill_name',
      'counsel_tips',
      'counsel_bet4me',
      'sender_id.BETDESK.safaricom',
      'sender_id.BETDESK.airtel',
      'sender_id.BETDESK.telkom',
      'sender_id.BETDESKPRO.safaricom',
      'sender_id.BETDESKPRO.airtel',
      'sender_id.BETDESKPRO.telkom',
    ]);
    expect(c.items.every((i) => i.status === 'missing')).toBe(true);
    expect(c.alerts).toBe(11);
    expect(c.items.find((i) => i.key === 'paybill_name')!.label).toContain('654321');
  });

  it('works out the ODPC certificate’s expiry at 24 months and its reminder 60 days before', async () => {
    const issued = addMonths(today(), -12);
    const res = await put('odpc_registration', { value: 'ODPC/DC/2025/001', issued_on: issued });
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({ status: 'ok', expires_on: addMonths(issued, 24), remind_from: addDays(addMonths(issued, 24), -60), updated_by: 'Grace Admin' });
    expect(addMonths('2024-02-29', 24)).toBe('2026-02-28');

    // 23 months ago: the certificate ends within 60 days, a reminder.
    await put('odpc_registration', { value: 'ODPC/DC/2025/001', issued_on: addMonths(today(), -23) });
    expect((await item('odpc_registration')).status).toBe('due');
    // 59 days before its end: not yet.
    await put('odpc_registration', { value: 'ODPC/DC/2025/001', issued_on: addDays(addMonths(today(), -24), 61) });
    expect((await item('odpc_registration')).status).toBe('ok');
    // 25 months ago: overdue.
    await put('odpc_registration', { value: 'ODPC/DC/2025/001', issued_on: addMonths(today(), -25) });
    expect((await item('odpc_registration')).status).toBe('overdue');
    // On the day it ends it is overdue.
    await put('odpc_registration', { value: 'ODPC/DC/2025/001', issued_on: addMonths(today(), -24) });
    const ended = await item('odpc_registration');
    expect(ended.expires_on! <= today()).toBe(true);
    expect(ended.status).toBe('overdue');
  });

  it('counts missing, due and overdue items as the dashboard alerts, and a recorded one leaves them', async () => {
    const before = (await calendar()).alerts;
    expect((await put('dpo', { value: 'Amina Otieno, dpo@betdesk.co.ke' })).json().item.status).toBe('ok');
    expect((await calendar()).alerts).toBe(before - 1);
    await put('sender_id.BETDESK.safaricom', { value: 'SAF/SID/88', issued_on: addMonths(today(), -11), expires_on: addDays(today(), -1) });
    expect((await item('sender_id.BETDESK.safaricom')).status).toBe('overdue');
    await put('sender_id.BETDESK.airtel', { value: 'AIR/77', expires_on: addDays(today(), 30) });
    expect((await item('sender_id.BETDESK.airtel')).status).toBe('due');
    await put('counsel_tips', { value: 'Selling tips is not gambling under the Act; keep the advertising rules', issued_on: today() });
    expect((await item('counsel_tips')).status).toBe('ok');
  });

  it('refuses dates the item cannot have, naming the field', async () => {
    const future = await put('odpc_registration', { value: 'X', issued_on: addDays(today(), 1) });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors).toHaveProperty('issued_on');
    const noDate = await put('counsel_bet4me', { value: 'Needs a bookmaker licence' });
    expect(noDate.json().errors).toHaveProperty('issued_on');
    const computed = await put('odpc_registration', { value: 'X', issued_on: today(), expires_on: addDays(today(), 5) });
    expect(computed.json().errors).toHaveProperty('expires_on');
    const none = await put('paybill_name', { value: 'BETDESK LTD', expires_on: today() });
    expect(none.json().errors).toHaveProperty('expires_on');
    const badDay = await put('dpo', { value: 'X', issued_on: '2026-02-30' });
    expect(badDay.json().errors).toHaveProperty('issued_on');
    const empty = await put('dpo', { value: '  ' });
    expect(empty.json().errors).toHaveProperty('value');
    expect((await put('sender_id.OTHER.safaricom', { value: 'X' })).statusCode).toBe(404);
    expect((await put('nonsense', { value: 'X' })).statusCode).toBe(404);
  });

  it('audits each change with what it was before', async () => {
    await put('paybill_name', { value: 'BETDESK TIPS' });
    await put('paybill_name', { value: 'BETDESK LTD', note: 'Renamed by Safaricom' });
    const audited = await rows<{ before: { value: string } | null; after: { value: string; note: string } }>(
      t.deps.db,
      sql`select before, after from audit_log where action = 'compliance.update' and entity_id = 'paybill_name' order by id`,
    );
    expect(audited.map((a) => a.after.value)).toEqual(['BETDESK TIPS', 'BETDESK LTD']);
    expect(audited[1]!.before).toMatchObject({ value: 'BETDESK TIPS' });
    expect(audited[1]!.after.note).toBe('Renamed by Safaricom');
  });

  it('is for admins only: staff can neither read nor change it', async () => {
    expect((await t.as(p.staff, { method: 'GET', url: '/api/compliance/calendar' })).statusCode).toBe(403);
    expect((await put('dpo', { value: 'Someone' }, p.staff)).statusCode).toBe(403);
    expect((await t.as(null, { method: 'GET', url: '/api/compliance/calendar' })).statusCode).toBe(401);
  });
});
