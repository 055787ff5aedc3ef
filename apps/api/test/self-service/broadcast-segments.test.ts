import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { smsMessages, subscriptions } from '../../src/db/schema/index.ts';
import { ADMIN, createTestApp, giveMarketingConsent, type TestApp } from '../helpers.ts';
import { seedPeople } from '../mpesa/fixtures.ts';

const DAY = 86_400_000;
let t: TestApp;
let ref: Awaited<ReturnType<typeof seedPeople>>;
let admin: string;

/** A subscription of a subscriber to a category, or of a client to a plan, ending `endsInDays` from now. */
async function subscription(who: { subscriberId: number; categoryId: number } | { clientId: number }, endsInDays: number) {
  const expiresAt = new Date(Date.now() + endsInDays * DAY);
  await t.deps.db.insert(subscriptions).values({
    ...('clientId' in who
      ? { clientId: who.clientId, planId: ref.weekly.id }
      : { subscriberId: who.subscriberId, betCategoryId: who.categoryId, medium: 'sms' as const }),
    durationDays: 7,
    amountCents: 10_000,
    startsAt: new Date(expiresAt.getTime() - 7 * DAY),
    expiresAt,
    source: 'manual',
  });
}

beforeAll(async () => {
  t = await createTestApp();
  ref = await seedPeople(t);
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  admin = await t.tokenFor('boss@betdesk.test');

  const d2 = ref.d2.id;
  const sub = (name: string, phone: string) => ref.person('subscriber', name, phone);
  await subscription({ subscriberId: await sub('Active', '254720000001'), categoryId: d2 }, 5);
  await subscription({ subscriberId: await sub('Lapsed 3 days', '254720000002'), categoryId: d2 }, -3);
  await subscription({ subscriberId: await sub('Lapsed 20 days', '254720000003'), categoryId: d2 }, -20);
  const renewed = await sub('Renewed', '254720000004');
  await subscription({ subscriberId: renewed, categoryId: d2 }, -2);
  await subscription({ subscriberId: renewed, categoryId: d2 }, 5);
  await subscription({ subscriberId: await sub('Other category', '254720000005'), categoryId: ref.ov.id }, 5);
  await subscription({ subscriberId: await sub('Stopped', '254720000006'), categoryId: d2 }, 5);
  await subscription({ subscriberId: await sub('Stopped lapsed', '254720000007'), categoryId: d2 }, -1);
  await subscription({ clientId: await ref.person('client', 'Client on a plan', '254720000011') }, 5);
  await subscription({ clientId: await ref.person('client', 'Client plan ended', '254720000012') }, -5);
  await ref.person('client', 'Client never paid', '254720000013');
  const stopped = await ref.person('client', 'Client stopped', '254720000014');
  await subscription({ clientId: stopped }, 5);

  for (const from of ['+254720000006', '+254720000007', '+254720000014']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/hooks/sms/inbound/test-webhook-secret-0123',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ from, to: '22384', text: 'STOP', id: `ATin-seg-${from}` }).toString(),
    });
    expect(res.statusCode).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
});

let keys = 0;
/** Previews then sends a broadcast to the segment; returns the preview and the phones it was queued to. */
async function broadcastTo(audience: Record<string, unknown>) {
  const body = { message: 'Offer of the week', ...audience };
  // Everyone the test made has given marketing consent: the segments alone decide who is in.
  const people = await t.deps.db.execute(sql`select phone from tips_subscribers union select phone from clients`);
  await giveMarketingConsent(t, ...(people as unknown as { rows: { phone: string }[] }).rows.map((r) => r.phone));
  const preview = await t.as(admin, { method: 'POST', url: '/api/broadcasts/preview', payload: body });
  expect(preview.statusCode).toBe(200);
  keys += 1;
  const sent = await t.as(admin, { method: 'POST', url: '/api/broadcasts/send', payload: { ...body, idempotency_key: `segment-key-${keys}-0000` } });
  expect(sent.statusCode).toBe(200);
  const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.broadcastId, sent.json().broadcast.id));
  expect(queued.every((m) => m.smsClass === 'promotional')).toBe(true);
  return { preview: preview.json(), phones: queued.map((m) => m.recipient).sort() };
}

describe('Broadcast segments', () => {
  it('active subscribers of a category: running now, that category only, opted-out phones left out', async () => {
    const { preview, phones } = await broadcastTo({ segment: 'category-active', bet_category_id: ref.d2.id });
    expect(phones).toEqual(['254720000001', '254720000004']);
    expect(preview).toMatchObject({ recipients: 2, opted_out: 1 });
  });

  it('lapsed subscribers of a category within N days, not those who renewed', async () => {
    const { preview, phones } = await broadcastTo({ segment: 'category-lapsed', bet_category_id: ref.d2.id, lapsed_days: 7 });
    expect(phones).toEqual(['254720000002']);
    expect(preview).toMatchObject({ recipients: 1, opted_out: 1 });
    const wider = await broadcastTo({ segment: 'category-lapsed', bet_category_id: ref.d2.id, lapsed_days: 30 });
    expect(wider.phones).toEqual(['254720000002', '254720000003']);
  });

  it('all clients, and active clients (a plan running now)', async () => {
    const all = await broadcastTo({ segment: 'clients-all' });
    expect(all.phones).toEqual(['254720000011', '254720000012', '254720000013']);
    expect(all.preview).toMatchObject({ recipients: 3, opted_out: 1 });
    const active = await broadcastTo({ segment: 'clients-active' });
    expect(active.phones).toEqual(['254720000011']);
    expect(active.preview).toMatchObject({ recipients: 1, opted_out: 1 });
  });
});
