import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { smsMessages, subscriptions, tipsSubscribers } from '../../src/db/schema/index.ts';
import { postLedgerEntry } from '../../src/modules/ledger/service.ts';
import { type TestApp } from '../helpers.ts';
import { tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp, ref: TipsReference, admin: string, staff: string;

beforeAll(async () => {
  ({ t, ref, admin, staff } = await tipsApp());
});
afterAll(() => t.close());

const newSubscriber = (overrides: Record<string, unknown> = {}) => ({
  name: 'Kevin Mutua',
  phone: '0733 123 456',
  bet_category_id: ref.d2,
  transmission_medium_id: 'sms',
  duration: '7',
  ...overrides,
});

const store = (token: string | null, body: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/tips/subscribers/store', payload: body });

describe('tips subscribers', () => {
  it('offers durations and media as key-to-label maps, and the bet categories', async () => {
    const res = await t.as(staff, { method: 'GET', url: '/api/tips/subscribers/new' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      durations: { '7': '1 Week', '30': '1 Month' },
      media: { sms: 'SMS', web: 'Web' },
      bet_categories: [
        { id: ref.d2, name: 'Daily 2 Odds', code: 'D2' },
        { id: ref.o15, name: 'Over 1.5 Goals', code: 'O15' },
      ],
    });
  });

  it('adds a subscriber with a manual subscription at the package price, recorded with the staff user', async () => {
    const res = await store(staff, newSubscriber());
    expect(res.statusCode).toBe(200);
    const id = res.json().subscriber.id as number;
    const [row] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.id, id));
    expect(row).toMatchObject({ name: 'Kevin Mutua', phone: '254733123456' });
    const [sub] = await t.deps.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, id));
    expect(sub).toMatchObject({
      source: 'manual',
      amountCents: 50_000,
      durationDays: 7,
      medium: 'sms',
      betCategoryId: ref.d2,
      packageId: ref.d2SmsWeek,
    });
    expect(sub!.createdBy).not.toBeNull();
  });

  it('finds a known subscriber by phone and stacks the renewal', async () => {
    const again = await store(admin, newSubscriber({ name: 'K. Mutua', phone: '+254733123456' }));
    const first = (await t.deps.db.select().from(tipsSubscribers)).find((s) => s.phone === '254733123456')!;
    expect(again.json().subscriber.id).toBe(first.id);
    const subs = await t.deps.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.subscriberId, first.id))
      .orderBy(subscriptions.id);
    expect(subs).toHaveLength(2);
    expect(subs[1]!.startsAt.getTime()).toBe(subs[0]!.expiresAt.getTime());
  });

  it("sends a subscriber who joins after today's tip that tip, once", async () => {
    await t.as(staff, {
      method: 'POST',
      url: '/api/tips/posts/update-sms-tips',
      payload: { posts: [{ bet_category_id: ref.d2, content: 'D2 today: Gor Mahia win' }] },
    });
    const res = await store(staff, newSubscriber({ name: 'Late Joiner', phone: '0744000111' }));
    expect(res.statusCode).toBe(200);
    const tipFor = () =>
      t.deps.db
        .select()
        .from(smsMessages)
        .where(and(eq(smsMessages.recipient, '254744000111'), eq(smsMessages.intent, 'tips.sms-tip')));
    expect((await tipFor()).map((m) => m.body)).toEqual(['D2 today: Gor Mahia win']);
    await store(staff, newSubscriber({ name: 'Late Joiner', phone: '0744000111' }));
    expect(await tipFor()).toHaveLength(1);
    await store(staff, newSubscriber({ name: 'Web Joiner', phone: '0744000222', transmission_medium_id: 'web' }));
    const webTips = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.recipient, '254744000222'));
    expect(webTips).toHaveLength(0);
  });

  it('refuses bad input, naming the field', async () => {
    const phone = await store(staff, newSubscriber({ phone: '12345' }));
    expect(phone.statusCode).toBe(422);
    expect(phone.json().errors).toEqual({ phone: ['Enter a Kenyan mobile number like 0712345678'] });
    const missing = await store(staff, {});
    expect(Object.keys(missing.json().errors).sort()).toEqual([
      'bet_category_id',
      'duration',
      'name',
      'phone',
      'transmission_medium_id',
    ]);
    const medium = await store(staff, newSubscriber({ transmission_medium_id: 'email' }));
    expect(Object.keys(medium.json().errors)).toEqual(['transmission_medium_id']);
    const category = await store(staff, newSubscriber({ bet_category_id: 999 }));
    expect(category.json().errors).toEqual({ bet_category_id: ['Choose one of the bet categories'] });
    const duration = await store(staff, newSubscriber({ bet_category_id: ref.o15, duration: '30' }));
    expect(duration.statusCode).toBe(422);
    expect(duration.json().errors).toEqual({
      duration: ['There is no SMS package of 1 Month for this bet category'],
    });
  });

  it('lists active subscribers with their number of subscriptions; admins may list everyone', async () => {
    const [lapsed] = await t.deps.db
      .insert(tipsSubscribers)
      .values({ name: 'Lapsed Lucy', phone: '254755000000', phoneHash: 'x' })
      .returning({ id: tipsSubscribers.id });
    const active = await t.as(staff, { method: 'GET', url: '/api/tips/subscribers/active?page=1&perPage=50' });
    expect(active.statusCode).toBe(200);
    expect(Object.keys(active.json()).sort()).toEqual(['subscribers', 'total_records']);
    const kevin = active.json().subscribers.find((s: { phone: string }) => s.phone === '254733123456');
    expect(Object.keys(kevin).sort()).toEqual(['id', 'joined_on', 'name', 'number_of_subscriptions', 'phone']);
    expect(kevin.number_of_subscriptions).toBe(2);
    expect(active.json().subscribers.map((s: { id: number }) => s.id)).not.toContain(lapsed!.id);
    expect(active.json().total_records).toBe(active.json().subscribers.length);

    const all = await t.as(admin, { method: 'GET', url: '/api/tips/subscribers/active?status=all' });
    expect(all.json().subscribers.map((s: { id: number }) => s.id)).toContain(lapsed!.id);
    expect((await t.as(staff, { method: 'GET', url: '/api/tips/subscribers/active?status=all' })).statusCode).toBe(403);
  });

  it('shows a subscriber with their subscriptions and account balance', async () => {
    const [kevin] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, '254733123456'));
    await postLedgerEntry(t.deps.db, { holder: { subscriberId: kevin!.id }, amountCents: 12_050, kind: 'payment' });
    await t.deps.db.execute(
      sql`update subscriptions set expires_at = now() - interval '1 hour' where id = (select min(id) from subscriptions where subscriber_id = ${kevin!.id})`,
    );
    const res = await t.as(staff, { method: 'GET', url: `/api/tips/subscribers/show?subscriber_id=${kevin!.id}` });
    expect(res.statusCode).toBe(200);
    const { subscriber } = res.json();
    expect(subscriber).toMatchObject({ id: kevin!.id, name: 'Kevin Mutua', number_of_subscriptions: 2, account_balance: 120.5 });
    expect(subscriber.subscriptions).toHaveLength(2);
    expect(subscriber.subscriptions[1]).toMatchObject({
      duration: 7,
      bets: 'Daily 2 Odds (D2) by SMS',
      amount: 500,
      status: 0,
      status_id: 0,
      status_name: 'Expired',
    });
    expect(subscriber.subscriptions[0]).toMatchObject({ status: 1, status_id: 1, status_name: 'Active' });
    expect((await t.as(staff, { method: 'GET', url: '/api/tips/subscribers/show?subscriber_id=98765' })).statusCode).toBe(404);
  });

  it("queues an SMS to a subscriber with the spec's text", async () => {
    const [kevin] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, '254733123456'));
    const res = await t.as(staff, {
      method: 'POST',
      url: '/api/tips/subscribers/send-sms',
      payload: { subscriber_id: kevin!.id, message: 'Your D2 package renews tomorrow.' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: 'SMS sent successfully' });
    const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'tips-subscriber.message'));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ recipient: '254733123456', subscriberId: kevin!.id });
    const empty = await t.as(staff, {
      method: 'POST',
      url: '/api/tips/subscribers/send-sms',
      payload: { subscriber_id: kevin!.id, message: '  ' },
    });
    expect(empty.json().errors).toEqual({ message: ['The message is required'] });
    const unknown = await t.as(staff, {
      method: 'POST',
      url: '/api/tips/subscribers/send-sms',
      payload: { subscriber_id: 98765, message: 'Hello' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('sends two different messages sent with the same X-Request-Id both, each once', async () => {
    const [kevin] = await t.deps.db.select().from(tipsSubscribers).where(eq(tipsSubscribers.phone, '254733123456'));
    for (const message of ['Your tips arrive at 9 am.', 'Today the tips come at 10 am.']) {
      const res = await t.as(staff, {
        method: 'POST',
        url: '/api/tips/subscribers/send-sms',
        headers: { 'x-request-id': 'same-request-id-1' },
        payload: { subscriber_id: kevin!.id, message },
      });
      expect(res.json()).toEqual({ info: 'SMS sent successfully' });
    }
    const queued = await t.deps.db
      .select()
      .from(smsMessages)
      .where(eq(smsMessages.intent, 'tips-subscriber.message'))
      .orderBy(smsMessages.id);
    expect(queued.map((m) => m.body).slice(-2)).toEqual(['Your tips arrive at 9 am.', 'Today the tips come at 10 am.']);
  });

  it('needs a session for every subscribers call', async () => {
    for (const url of ['/api/tips/subscribers/new', '/api/tips/subscribers/active', '/api/tips/subscribers/show?subscriber_id=1']) {
      expect((await t.as(null, { method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await store(null, newSubscriber())).statusCode).toBe(401);
    const sms = await t.as(null, {
      method: 'POST',
      url: '/api/tips/subscribers/send-sms',
      payload: { subscriber_id: 1, message: 'x' },
    });
    expect(sms.statusCode).toBe(401);
  });
});
