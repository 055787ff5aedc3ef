import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betCategories, pricePackages } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { tipsReference, type TipsReference } from '../tips-fixtures/reference.ts';
import { screen } from '../ussd/fixtures.ts';

let t: TestApp;
let ref: TipsReference;
let freeD2: number;
let freeJackpot: number;

beforeAll(async () => {
  t = await createTestApp();
  ref = await tipsReference(t.deps.db);
  const [jackpot] = await t.deps.db.insert(betCategories).values({ name: 'Jackpot', code: 'JP' }).returning({ id: betCategories.id });
  [{ id: freeD2 }, { id: freeJackpot }] = (await t.deps.db
    .insert(pricePackages)
    .values([
      { betCategoryId: ref.d2, medium: 'web', name: 'D2 Web monthly', durationDays: 30, priceCents: 0 },
      { betCategoryId: jackpot!.id, medium: 'sms', name: 'Jackpot SMS weekly', durationDays: 7, priceCents: 0 },
    ])
    .returning({ id: pricePackages.id })) as [{ id: number }, { id: number }];
});
afterAll(() => t.close());

describe('packages on sale', () => {
  it('offers a priced package on the portal and not a zero-price one', async () => {
    const listed = (await t.app.inject({ method: 'GET', url: '/api/portal/packages' })).json().packages.map((p: { id: number }) => p.id);
    expect(listed).toContain(ref.d2WebWeek);
    expect(listed).not.toContain(freeD2);
    expect(listed).not.toContain(freeJackpot);
    expect((await t.app.inject({ method: 'GET', url: `/portal/packages/${ref.d2WebWeek}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/portal/packages/${freeD2}` })).statusCode).toBe(404);
  });

  it('offers a priced package on the USSD menu and not a zero-price one, nor a category with only those', async () => {
    expect(await screen(t, '1')).toBe('CON Buy tips: choose\n1 Daily 2 Odds\n2 Over 1.5 Goals\n0 Back');
    expect(await screen(t, '1*1')).toBe(
      'CON Daily 2 Odds: choose\n1 SMS 7 days KES 500\n2 SMS 30 days KES 1500\n3 Web 7 days KES 400\n0 Back',
    );
  });
});
