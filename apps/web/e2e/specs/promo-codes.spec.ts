import { expect, type APIRequestContext } from '@playwright/test';
import { admin, declareAdult, shot, signIn, testWithOwnServerAndDaraja } from '../support.ts';

/**
 * Promo codes (decision 077): an admin creates a code on the Promo codes screen, a punter on a 360 px
 * phone types it on the portal and is asked the discounted price by STK push, and Reports → Promo
 * codes shows the use, its income and the discount given. The spec runs its own server against a
 * fake Daraja and a fake Africa's Talking.
 */
const WEBHOOK_SECRET = 'e2e-promo-webhook-secret-0123';
const test = testWithOwnServerAndDaraja({
  MPESA_SHORTCODE: '174379',
  // Daraja's published sandbox passkey.
  MPESA_PASSKEY: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
  WEBHOOK_SECRET,
});

/** D2 with one web package at KES 150; its id. */
async function setUpCatalogue(request: APIRequestContext): Promise<number> {
  const login = await request.post('/api/auth/login', { data: admin });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}`, 'x-requested-with': 'XMLHttpRequest' };
  const post = async (path: string, data: unknown) => {
    const res = await request.post(path, { headers, data });
    expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  };
  await post('/api/catalogue/bet-categories/store', { name: 'Daily 2 Odds', code: 'D2' });
  const catalogue = (await (await request.get('/api/catalogue', { headers })).json()) as { bet_categories: { id: number; code: string }[] };
  await post('/api/tips/prices/store', { bet_category_id: catalogue.bet_categories.find((c) => c.code === 'D2')!.id, medium: 'web', name: 'D2 web weekly', duration: 7, price: 150 });
  const { packages } = (await (await request.get('/api/tips/prices/web-tips', { headers })).json()) as { packages: { id: number; name: string }[] };
  return packages.find((p) => p.name === 'D2 web weekly')!.id;
}

test('an admin creates a code, a punter uses it on a 360 px phone, and the promotion report shows the use', async ({ page, browser, request, daraja, gateway, ownServer }) => {
  test.setTimeout(180_000);
  const packageId = await setUpCatalogue(request);

  // The admin's Promo codes screen: a new code, 10 % off the weekly web package.
  await signIn(page, admin);
  await page.getByRole('link', { name: 'Promo codes' }).click();
  await expect(page).toHaveURL(/\/promo-codes$/);
  await page.getByTestId('new-promo-code').click();
  const modal = page.getByTestId('promo-code-modal');
  await modal.getByTestId('promo-code-code').fill('radio10');
  await modal.getByTestId('promo-code-percent').fill('10');
  await modal.getByTestId('promo-code-packages').click();
  await page.getByRole('option', { name: 'D2 web weekly (web)' }).click();
  await modal.getByTestId('promo-code-cap').fill('100');
  await modal.getByRole('button', { name: 'Create code' }).click();
  await expect(modal.getByText('Promo code created')).toBeVisible();
  const table = page.getByTestId('promo-codes-table');
  await expect(table).toContainText('RADIO10');
  await expect(table).toContainText('10 %');
  await expect(table).toContainText('0 / 100');
  await shot(page, 'promo-codes');

  // The punter, on a cheap phone: declared 18+ by SMS, signs in and pays with the code.
  await declareAdult(request, WEBHOOK_SECRET, '+254712345678');
  const phone = await browser.newContext({ baseURL: ownServer.baseURL, viewport: { width: 360, height: 740 } });
  const punter = await phone.newPage();
  await punter.goto(`/portal/packages/${packageId}`);
  await punter.getByRole('button', { name: 'Pay with M-Pesa' }).click();
  await expect(punter).toHaveURL(/\/portal\/sign-in\?next=/);
  await punter.getByLabel('Phone number').fill('0712 345 678');
  await punter.getByRole('button', { name: 'Send me a code' }).click();
  let code = '';
  await expect
    .poll(() => {
      const sms = gateway.accepted.find((m) => m.number === '+254712345678' && /sign-in code/.test(m.message));
      code = sms?.message.match(/\b(\d{6})\b/)?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await punter.getByLabel(/6-digit code/).fill(code);
  await punter.getByRole('button', { name: 'Sign in' }).click();
  await expect(punter.getByText('The payment request goes to 0712345678.')).toBeVisible();
  expect(await punter.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  daraja.outcomes.push({ resultCode: 0, callback: true, receipt: 'SPR1000001' });
  await punter.getByLabel(/promo code/i).fill('radio10');
  await punter.getByRole('button', { name: 'Pay with M-Pesa' }).click();
  await expect(punter).toHaveURL(/\/portal\/purchases\/\d+$/);
  // The push asks the discounted price: 150 less 10 %.
  expect(daraja.pushes.at(-1)).toMatchObject({ PartyA: '254712345678', Amount: 135, AccountReference: 'D2' });
  await expect(punter.getByRole('status')).toHaveText('Paid', { timeout: 15_000 });
  await phone.close();

  // The code's use is counted, and the promotion report shows it with its income and discount.
  await page.reload();
  await expect(table).toContainText('1 / 100');
  await page.goto('/reports?report=promo-codes');
  const report = page.getByTestId('promo-codes-report-table');
  const row = report.getByRole('row', { name: /RADIO10/ });
  await expect(row).toContainText('135');
  await expect(row).toContainText('15');
  await expect(page.getByTestId('promo-uses')).toContainText('1');
  await shot(page, 'report-promo-codes');
});
