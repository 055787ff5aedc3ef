import { expect, type APIRequestContext } from '@playwright/test';
import { admin, signInToPortalByCode, testWithOwnServerAndDaraja } from '../support.ts';

/**
 * Issue 30: a punter on a 360 px phone buys a weekly package on the portal and, on the paid
 * purchase's page, turns on automatic renewal by M-Pesa Ratiba; after approving with their PIN (the
 * fake Daraja's customer approves), My account shows it on, with the next date, the amount and how
 * to stop it.
 */
const test = testWithOwnServerAndDaraja({
  MPESA_SHORTCODE: '174379',
  // Daraja's published sandbox passkey.
  MPESA_PASSKEY: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
});
test.use({ viewport: { width: 360, height: 740 } });

/** D2 with a weekly web package, and Ratiba turned on (Safaricom has enabled it for the paybill). */
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
  await post('/api/settings/update', { key: 'mpesa_ratiba_enabled', value: true });
}

test.describe('Automatic renewal on the portal', () => {
  test('a subscriber turns on automatic renewal after buying, on a 360 px phone', async ({ page, request, daraja, gateway }) => {
    await setUp(request);
    await page.goto('/portal/packages');
    await page.getByRole('link', { name: 'Pay with M-Pesa' }).first().click();
    await page.getByRole('button', { name: 'Pay with M-Pesa' }).click();
    await signInToPortalByCode(page, gateway, '0712 345 678');
    daraja.outcomes.push({ resultCode: 0, callback: true, receipt: 'SPE3000001' });
    await page.getByLabel(/I am 18 years old or older/).check(); // the first purchase's 18+ declaration (decision 060)
    await page.getByRole('button', { name: 'Pay with M-Pesa' }).click();
    await expect(page.getByText('Paid', { exact: true })).toBeVisible({ timeout: 15_000 });

    // The paid purchase offers automatic renewal for the package's price, weekly.
    await page.reload();
    // It says until when the standing order runs (Ratiba needs an end: a year after the start).
    await expect(page.getByText(/Renew automatically by M-Pesa Ratiba: KES 150 every week, from \d{1,2} \w{3} \d{4} until \d{1,2} \w{3} \d{4}\./)).toBeVisible();
    await page.getByRole('button', { name: 'Turn on automatic renewal' }).click();
    await expect(page).toHaveURL(/\/portal\/account\?done=auto-renew-on$/);
    await expect(page.getByText('Check your phone and enter your M-Pesa PIN to approve automatic renewal.')).toBeVisible();
    expect(daraja.ratibaRequests.at(-1)).toMatchObject({ PartyA: '254712345678', Amount: '150', AccountReference: 'D2', Frequency: '3' });

    // The customer approved with their PIN: My account shows it on, the next payment and how to stop.
    await expect
      .poll(async () => {
        await page.goto('/portal/account');
        return page.getByText('Automatic renewal: on').count();
      })
      .toBe(1);
    await expect(page.getByText(/Next payment: KES 150 on \d{1,2} \w{3} \d{4} \(every week until \d{1,2} \w{3} \d{4}\)\./)).toBeVisible();
    // No "renew by M-Pesa" reminder will come for it: the page says when it renews instead.
    await expect(page.getByText(/Active until .*, renews automatically on \d{1,2} \w{3} \d{4}/)).toBeVisible();
    await expect(page.getByText(/also cancel it in the M-Pesa app \(M-Pesa Ratiba\) or by dialling \*334#/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop automatic renewal' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test('a Kiswahili reader who declines the standing order is told by SMS and on My account', async ({ page, request, daraja, gateway }) => {
    await setUp(request);
    await page.goto('/portal/packages');
    await page.getByRole('link', { name: 'Pay with M-Pesa' }).first().click();
    await page.getByRole('button', { name: 'Pay with M-Pesa' }).click();
    await signInToPortalByCode(page, gateway, '0712 345 679');
    // Signed in, the language switch is kept with the phone: its SMS are in Kiswahili too.
    await page.getByRole('button', { name: 'Soma kwa Kiswahili' }).click();
    daraja.outcomes.push({ resultCode: 0, callback: true, receipt: 'SPE3000002' });
    await page.getByLabel(/Nina umri wa miaka 18 au zaidi/).check();
    await page.getByRole('button', { name: 'Lipa kwa M-Pesa' }).click();
    await expect(page.getByText('Imelipwa', { exact: true })).toBeVisible({ timeout: 15_000 });
    await page.reload();
    await expect(page.getByText(/KES 150 kila wiki, kuanzia \d{1,2} \w{3} \d{4} hadi \d{1,2} \w{3} \d{4}\./)).toBeVisible();

    // The punter says no on their phone.
    daraja.ratibaOutcomes.push({ resultCode: 1032, callback: true });
    await page.getByRole('button', { name: 'Washa kulipia kiotomatiki' }).click();
    await expect(page).toHaveURL(/\/portal\/account\?done=auto-renew-on$/);
    await expect
      .poll(async () => {
        await page.goto('/portal/account');
        return page.getByText(/Ombi lako la kulipia kiotomatiki lilikataliwa kwenye M-Pesa tarehe \d{1,2} \w{3} \d{4}: hakuna pesa itakayokatwa\./).count();
      })
      .toBe(1);
    await expect(page.getByRole('button', { name: 'Washa kulipia kiotomatiki' })).toBeVisible();
    await expect
      .poll(() => gateway.accepted.find((m) => m.number === '+254712345679' && m.message.startsWith('Ombi lako la kulipia'))?.message ?? '')
      .toMatch(/limekataliwa kwenye M-Pesa: hakuna pesa itakayokatwa kiotomatiki\. Kuwasha tena, tumia Akaunti yangu kwenye \S+\/portal\/account\.$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
