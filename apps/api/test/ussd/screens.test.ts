import { afterAll, beforeAll, expect, it } from 'vitest';
import { pricePackages, tipsSubscribers } from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { activateSubscription } from '../../src/modules/subscriptions/service.ts';
import { seedTipsDemo } from '../../src/seed/tips.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { dial } from './fixtures.ts';

let t: TestApp;
const phone = '254711000301';

beforeAll(async () => {
  t = await createTestApp();
  await t.deps.db.transaction((tx) => seedTipsDemo(tx, null));
  // A punter holding every package of the demo catalogue: the longest "My subscriptions".
  const [subscriber] = await t.deps.db
    .insert(tipsSubscribers)
    .values({ name: 'Every Package', phone, phoneHash: sha256Hex(phone) })
    .returning({ id: tipsSubscribers.id });
  for (const p of await t.deps.db.select().from(pricePackages)) {
    await t.deps.db.transaction((tx) =>
      activateSubscription(tx, {
        what: { subscriberId: subscriber!.id, packageId: p.id, betCategoryId: p.betCategoryId, medium: p.medium },
        durationDays: p.durationDays,
        amountCents: p.priceCents,
        source: 'manual',
      }),
    );
  }
});
afterAll(() => t.close());

it('keeps every screen reachable from the demo catalogue within 182 characters (errors and pages included)', async () => {
  const seen = new Map<string, string>();
  const queue = [''];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const res = await dial(t, { text: path, phone: `+${phone}` });
    expect(res.statusCode, path).toBe(200);
    expect(res.body, path).toMatch(/^(CON|END) /);
    expect(res.body.length, `"${path}": ${res.body}`).toBeLessThanOrEqual(182);
    seen.set(path, res.body);
    const last = path.split('*').at(-1);
    if (!res.body.startsWith('CON ') || last === '0' || last === 'x') continue;
    const options = res.body.split('\n').flatMap((line) => /^(\d+) /.exec(line)?.[1] ?? []);
    for (const option of [...options, 'x']) {
      // 6 changes the phone's language: the rest of this walk stays in English (both languages are
      // walked in test/customer-texts/catalogue.test.ts).
      // 7 would exclude the phone from every sale (self-exclusion, walked in test/exclusions).
      if (path === '' && (option === '6' || option === '7')) continue;
      queue.push(path === '' ? option : `${path}*${option}`);
    }
  }
  const bodies = [...new Set(seen.values())];
  // The walk went everywhere: each category's packages, a purchase, the subscriptions' pages, both SMS screens.
  expect(bodies.filter((b) => /^CON [^\n]+: choose\n1 SMS 7 days/.test(b))).toHaveLength(5);
  expect(bodies).toContain('END We are sending you an SMS with how to pay KES 3000 by M-Pesa.');
  expect(bodies.some((b) => b.startsWith('CON My subscriptions:') && b.includes('\n98 More'))).toBe(true);
  expect(bodies.some((b) => b.startsWith('END My subscriptions:\n'))).toBe(true);
  expect(bodies.some((b) => b.startsWith('CON Stop all tips'))).toBe(true);
  expect(bodies.some((b) => b.startsWith('CON Invalid choice.\n'))).toBe(true);
  expect(seen.size).toBeGreaterThan(80);
  // The walk is over 80 sessions: the limit bounds a hung walk on a busy machine, it times nothing. How
  // fast a step answers is the bench's to say (the network drops a session that waits), never a test's.
}, 120_000);
