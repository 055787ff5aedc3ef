import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { smsMessages, smsOptOuts } from '../../src/db/schema/index.ts';
import { smsParts } from '@betdesk/contract';
import { getSetting } from '../../src/modules/settings/service.ts';
import { type TestApp } from '../helpers.ts';
import { addTipsSubscriber, tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

/** Issue 14 item 2: before saving SMS tips the screen says how many SMS, parts and KES it sends. */
let t: TestApp, ref: TipsReference, staff: string;

const subscriber = (phone: string, medium: 'sms' | 'web', betCategoryId: number, expired = false) =>
  addTipsSubscriber(t.deps.db, ref, phone, medium, betCategoryId, expired);

const estimate = (token: string | null, posts: { bet_category_id: number; content: string }[]) =>
  t.as(token, { method: 'POST', url: '/api/tips/posts/update-sms-tips/estimate', payload: { posts } });

beforeAll(async () => {
  ({ t, ref, staff } = await tipsApp());
  await subscriber('254711000001', 'sms', ref.d2);
  await subscriber('254711000002', 'sms', ref.d2);
  await subscriber('254711000003', 'web', ref.d2);
  await subscriber('254711000004', 'sms', ref.d2, true);
  await subscriber('254711000006', 'sms', ref.d2);
  await subscriber('254711000005', 'sms', ref.o15);
  // One D2 subscriber opted out of D2 tips: the fan-out leaves them out, so does the estimate.
  await t.deps.db.insert(smsOptOuts).values({ phone: '254711000006', scope: String(ref.d2), betCategoryId: ref.d2, source: 'admin' });
});
afterAll(() => t.close());

describe('SMS tips estimate', () => {
  it('counts the running SMS subscribers of each changed category, their parts and the cost, and saves nothing', async () => {
    const longText = 'Arsenal to win and both teams to score. '.repeat(5); // 200 GSM-7 characters: 2 parts
    const res = await estimate(staff, [
      { bet_category_id: ref.d2, content: longText },
      { bet_category_id: ref.o15, content: 'Over 1.5 in Chelsea v Spurs' },
    ]);
    expect(res.statusCode).toBe(200);
    const perPartCents = await getSetting(t.deps.db, 'sms_cost_per_part_cents');
    expect(perPartCents).toBeGreaterThan(0);
    const body = res.json();
    expect(body.tips).toHaveLength(2);
    const [d2, o15] = body.tips;
    expect(d2).toMatchObject({ bet_category_id: ref.d2, code: 'D2', recipients: 2, parts: smsParts(longText) });
    expect(d2.parts).toBe(2);
    expect(d2.estimated_parts).toBe(4);
    expect(o15).toMatchObject({ bet_category_id: ref.o15, recipients: 1, parts: 1, estimated_parts: 1 });
    expect(body.recipients).toBe(3);
    expect(body.estimated_parts).toBe(5);
    expect(d2.estimated_cost).toBe((4 * perPartCents) / 100);
    expect(o15.estimated_cost).toBe(perPartCents / 100);
    expect(body.estimated_cost).toBe((5 * perPartCents) / 100);
    const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.intent, 'tips.sms-tip'));
    expect(queued).toHaveLength(0);
  });

  it('leaves out a text that did not change and an empty one, as the save does', async () => {
    const save = await t.as(staff, {
      method: 'POST',
      url: '/api/tips/posts/update-sms-tips',
      payload: { posts: [{ bet_category_id: ref.d2, content: 'Saved once' }] },
    });
    expect(save.statusCode).toBe(200);
    expect(save.json().queued).toBe(2);
    const res = await estimate(staff, [
      { bet_category_id: ref.d2, content: 'Saved once' },
      { bet_category_id: ref.o15, content: '' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tips: [], recipients: 0, estimated_parts: 0, estimated_cost: 0 });
  });

  it('names the field of an unknown category and needs a session', async () => {
    const unknown = await estimate(staff, [{ bet_category_id: 999_999, content: 'x' }]);
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toContain('posts.0.bet_category_id');
    expect((await estimate(null, [{ bet_category_id: ref.d2, content: 'x' }])).statusCode).toBe(401);
  });
});
