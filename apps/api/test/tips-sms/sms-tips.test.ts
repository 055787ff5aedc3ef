import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, type SQL } from 'drizzle-orm';
import { smsMessages } from '../../src/db/schema/index.ts';
import { currentTipsWithDelivery } from '../../src/modules/tips-sms/queries.ts';
import { explain, type TestApp } from '../helpers.ts';
import { addTipsSubscriber, tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp, ref: TipsReference, admin: string, staff: string;

const subscriber = (phone: string, medium: 'sms' | 'web', betCategoryId: number, expired = false) =>
  addTipsSubscriber(t.deps.db, ref, phone, medium, betCategoryId, expired);

const tipRows = () =>
  t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'tips.sms-tip')).orderBy(smsMessages.id);

const save = (token: string, posts: { bet_category_id: number; content: string }[]) =>
  t.as(token, { method: 'POST', url: '/api/tips/posts/update-sms-tips', payload: { posts } });

beforeAll(async () => {
  ({ t, ref, admin, staff } = await tipsApp());
  await subscriber('254711000001', 'sms', ref.d2);
  await subscriber('254711000002', 'sms', ref.d2);
  await subscriber('254711000003', 'web', ref.d2);
  await subscriber('254711000004', 'sms', ref.d2, true);
  await subscriber('254711000005', 'sms', ref.o15);
});
afterAll(() => t.close());

describe('SMS tips', () => {
  it('shows one empty tip per bet category before anything is written, with the running SMS subscribers it would go to', async () => {
    const res = await t.as(staff, { method: 'GET', url: '/api/tips/posts/update-sms-tips' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      posts: [
        { bet_category_id: ref.d2, bet_category: 'Daily 2 Odds', code: 'D2', content: '', updated_at: null, recipients: 2 },
        { bet_category_id: ref.o15, bet_category: 'Over 1.5 Goals', code: 'O15', content: '', updated_at: null, recipients: 1 },
      ],
    });
  });

  it('queues a changed tip to each active SMS subscriber of its category only', async () => {
    const res = await save(staff, [
      { bet_category_id: ref.d2, content: 'D2: Arsenal & Chelsea GG @1.95' },
      { bet_category_id: ref.o15, content: '' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().queued).toBe(2);
    const sent = await tipRows();
    expect(sent.map((m) => m.recipient).sort()).toEqual(['254711000001', '254711000002']);
    expect(sent.every((m) => m.body === 'D2: Arsenal & Chelsea GG @1.95')).toBe(true);
  });

  it('sends each subscriber a tip once even when saved twice with the same text', async () => {
    const again = await save(admin, [{ bet_category_id: ref.d2, content: '  D2: Arsenal & Chelsea GG @1.95 ' }]);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ queued: 0, message: 'No SMS tip changed' });
    expect(await tipRows()).toHaveLength(2);
  });

  it('sends a new text as a new version', async () => {
    const res = await save(staff, [{ bet_category_id: ref.d2, content: 'D2 update: Man U win @1.60' }]);
    expect(res.json().queued).toBe(2);
    expect(await tipRows()).toHaveLength(4);
    const edit = await t.as(staff, { method: 'GET', url: '/api/tips/posts/update-sms-tips' });
    expect(edit.json().posts[0]).toMatchObject({ content: 'D2 update: Man U win @1.60' });
  });

  it("shows each category's delivery counts from the outbox", async () => {
    const latest = (await tipRows()).slice(-2);
    await t.deps.db.update(smsMessages).set({ status: 'delivered' }).where(eq(smsMessages.id, latest[0]!.id));
    await t.deps.db.update(smsMessages).set({ status: 'failed' }).where(eq(smsMessages.id, latest[1]!.id));
    const res = await t.as(staff, { method: 'GET', url: '/api/tips/posts/view-sms-tips' });
    expect(res.statusCode).toBe(200);
    const [d2, o15] = res.json().posts;
    expect(d2).toMatchObject({
      bet_category: 'Daily 2 Odds',
      content: 'D2 update: Man U win @1.60',
      delivery: { queued: 0, sent: 0, delivered: 1, failed: 1 },
    });
    expect(o15.delivery).toEqual({ queued: 0, sent: 0, delivered: 0, failed: 0 });
  });

  it('refuses an unknown bet category, a category twice and an over-long tip, naming the field', async () => {
    const unknown = await save(staff, [{ bet_category_id: 999, content: 'x' }]);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ 'posts.0.bet_category_id': ['This bet category does not exist'] });
    const twice = await save(staff, [
      { bet_category_id: ref.d2, content: 'a' },
      { bet_category_id: ref.d2, content: 'b' },
    ]);
    expect(twice.statusCode).toBe(422);
    expect(Object.keys(twice.json().errors).sort()).toEqual(['posts', 'posts.1.bet_category_id']);
    const long = await save(staff, [{ bet_category_id: ref.d2, content: 'x'.repeat(1601) }]);
    expect(Object.keys(long.json().errors).sort()).toEqual(['posts', 'posts.0.content']);
    const none = await t.as(staff, { method: 'POST', url: '/api/tips/posts/update-sms-tips', payload: {} });
    expect(Object.keys(none.json().errors)).toEqual(['posts']);
  });

  it('needs a session', async () => {
    expect((await t.as(null, { method: 'GET', url: '/api/tips/posts/update-sms-tips' })).statusCode).toBe(401);
    expect((await t.as(null, { method: 'GET', url: '/api/tips/posts/view-sms-tips' })).statusCode).toBe(401);
    expect((await save(null as unknown as string, [{ bet_category_id: ref.d2, content: 'x' }])).statusCode).toBe(401);
  });
});

describe('View SMS tips at scale', () => {
  it('counts a tip\'s deliveries through the tip-version index, not by scanning the outbox', async () => {
    // Thousands of other messages and older tip versions in the outbox.
    await t.deps.database.executeSql(
      `insert into sms_messages (intent, dedupe_key, recipient, body, parts, status)
       select case when n % 4 = 0 then 'tips.sms-tip' else 'client.message' end,
              case when n % 4 = 0 then 'sms-tip:' || (100000 + n % 40) || ':' || n else 'bulk:' || n end,
              '2547' || lpad(n::text, 8, '0'), 'x', 1, 'delivered'
         from generate_series(1, 6000) as n`,
    );
    await t.deps.database.executeSql('analyze sms_messages');
    let viewed: SQL | undefined;
    const recording = new Proxy(t.deps.db, {
      get: (target, key, receiver) =>
        key === 'execute' ? (query: SQL) => ((viewed = query), target.execute(query)) : Reflect.get(target, key, receiver),
    });
    const [d2] = await currentTipsWithDelivery(recording);
    expect(d2!.delivery).toEqual({ queued: 0, sent: 0, delivered: 1, failed: 1 });
    const plan = await explain(viewed!, t.deps.db);
    expect(plan.indexes).toContain('sms_tip_version_idx');
    expect(plan.seqScans).not.toContain('sms_messages');
  });
});
