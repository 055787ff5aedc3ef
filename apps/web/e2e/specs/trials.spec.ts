import { expect, type APIRequestContext } from '@playwright/test';
import { admin, shot, signIn, signInToPortalByCode, testWithOwnServerAndDaraja } from '../support.ts';

/**
 * Decision 089: on a 360 px phone a newcomer starts a weekly package's free trial, which comes only
 * with automatic renewal; the Ratiba standing order is asked for at once, its first debit the day
 * the trial ends, and My account shows the trial running and the renewal on once approved.
 */
const test = testWithOwnServerAndDaraja({
  MPESA_SHORTCODE: '174379',
  // Daraja's published sandbox passkey.
  MPESA_PASSKEY: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
});
test.use({ viewport: { width: 360, height: 740 } });

/** D2 with a weekly web package offering 3 free days only with automatic renewal, and Ratiba on. */
async function setUp(request: APIRequestContext) {
  const { token } = (await (await request.post('/api/auth/login', { data: admin })).json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const post = async (path: string, data: unknown) => {
    const res = await request.post(path, { headers, data });
    expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  };
  await post('/api/catalogue/bet-categories/store', { name: 'Daily 2 Odds', code: 'D2' });
  const catalogue = (await (await request.get('/api/catalogue', { headers })).json()) as { bet_categories: { id: number; code: string }[] };
  const d2 = catalogue.bet_categories.find((c) => c.code === 'D2')!.id;
  await post('/api/tips/prices/store', { bet_category_id: d2, medium: 'web', name: 'D2 web weekly', duration: 7, price: 150 });
  const packages = (await (await request.get('/api/tips/prices/web-tips', { headers })).json()) as { packages: { id: number }[] };
  await post('/api/tips/prices/trial', { bet_category_price_id: packages.packages[0]!.id, trial_days: 3, trial_needs_auto_renew: true });
  await post('/api/settings/update', { key: 'mpesa_ratiba_enabled', value: true });
}

test('a newcomer starts a free trial with automatic renewal on a 360 px phone', async ({ page, request, daraja, gateway }) => {
  await setUp(request);
  await page.goto('/portal/packages');
  await page.getByRole('link', { name: 'Pay with M-Pesa' }).first().click();
  const trial = page.locator('[data-trial]');
  await expect(trial.getByText(/Try it free for 3 days with automatic renewal: the first M-Pesa payment of KES 150 is taken on \d{1,2} \w{3} \d{4}, after the trial\./)).toBeVisible();
  await trial.getByRole('button', { name: 'Start a free trial' }).click();

  // Signed out: the sign-in comes first, then back to the package.
  await signInToPortalByCode(page, gateway, '0712 345 680');
  await trial.getByLabel(/I am 18 years old or older/).check();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await shot(page, 'trial-offer');
  await page.setViewportSize({ width: 360, height: 740 });
  await trial.getByRole('button', { name: 'Start a free trial' }).click();

  await expect(page.getByText(/^Your free trial of D2 web weekly has started: your tips run until \d{1,2} \w{3} \d{4}\. Check your phone/)).toBeVisible();
  const request0 = daraja.ratibaRequests.at(-1)!;
  expect(request0).toMatchObject({ PartyA: '254712345680', Amount: '150', AccountReference: 'D2', Frequency: '3' });
  // The first debit is the day the trial ends: three Nairobi days from today.
  const inThreeDays = new Date(Date.now() + 3 * 3_600_000 + 3 * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
  expect(request0.StartDate).toBe(inThreeDays);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Approved with the PIN: My account shows the trial's cover and the renewal on.
  await expect
    .poll(async () => {
      await page.goto('/portal/account');
      return page.getByText('Automatic renewal: on').count();
    })
    .toBe(1);
  await expect(page.getByText(/Next payment: KES 150 on \d{1,2} \w{3} \d{4}/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The trial is once per phone: the package page offers it no more.
  await page.goto('/portal/packages');
  await page.getByRole('link', { name: 'Pay with M-Pesa' }).first().click();
  await expect(page.locator('[data-trial]')).toHaveCount(0);
});

test('an admin sets a package free trial on the packages screen', async ({ page, request }) => {
  const { token } = (await (await request.post('/api/auth/login', { data: admin })).json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  expect((await request.post('/api/catalogue/bet-categories/store', { headers, data: { name: 'Over 1.5', code: 'O15' } })).ok()).toBe(true);
  const catalogue = (await (await request.get('/api/catalogue', { headers })).json()) as { bet_categories: { id: number; code: string }[] };
  const o15 = catalogue.bet_categories.find((c) => c.code === 'O15')!.id;
  expect((await request.post('/api/tips/prices/store', { headers, data: { bet_category_id: o15, medium: 'sms', name: 'O15 SMS weekly', duration: 7, price: 100 } })).ok()).toBe(true);

  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, admin);
  await page.goto('/tips/prices/sms-tips');
  const row = page.getByTestId('prices-table').getByRole('row', { name: /O15 SMS weekly/ });
  await expect(row).toContainText('None');
  await row.getByRole('button', { name: 'Trial' }).click();
  const modal = page.getByTestId('trial-modal');
  await modal.getByLabel('Trial days').fill('40');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByText('A trial may not be longer than 31 days')).toBeVisible();
  await modal.getByLabel('Trial days').fill('3');
  await modal.getByLabel(/Only with automatic renewal/).check();
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('3 days, with renewal');
  await shot(page, 'prices-trial');
});
