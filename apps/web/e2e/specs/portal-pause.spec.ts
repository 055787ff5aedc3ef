import { expect, type APIRequestContext } from '@playwright/test';
import { admin, shot, signInToPortalByCode, testWithOwnServer } from '../support.ts';

/**
 * Issue 57, item 4 (decision 090): a punter pauses their weekly subscription on My account from a
 * cheap 360 px phone whose browser runs no JavaScript; the page comes back with the new end and
 * the days without tips, and the form is gone (once per period). Its own server, for the fake SMS
 * gateway that delivers the sign-in code and the confirming SMS.
 */
const test = testWithOwnServer();
test.use({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });

/** D2 with a weekly web package, and the punter holding it (a staff grant at the package price). */
async function setUp(request: APIRequestContext, phone: string) {
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
  await post('/api/tips/subscribers/store', { name: 'Otieno Pause', phone, bet_category_id: d2, transmission_medium_id: 'web', duration: 7 });
}

test.describe('Pausing a subscription on the portal', () => {
  test('a punter pauses a weekly subscription for 3 days on a 360 px phone without JavaScript', async ({ page, request, gateway }) => {
    await setUp(request, '0712300570');
    await page.goto('/portal/sign-in?next=/portal/account');
    await signInToPortalByCode(page, gateway, '0712 300 570');
    await expect(page).toHaveURL(/\/portal\/account$/);

    const before = await page.getByText(/^Active until /).textContent();
    const days = page.getByLabel('Pause my tips for how many days? 1 to 7');
    await expect(days).toHaveAttribute('max', '7');
    await days.fill('3');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    await expect(page.getByTestId('account-notice')).toHaveText(
      /^Paused for 3 days: no tips until \d{1,2} \w{3} \d{4}\. Your subscription now ends \d{1,2} \w{3} \d{4}\. We sent you an SMS\.$/,
    );
    await expect(page.getByText(/^Tips paused from .+ until .+\.$/)).toBeVisible();
    // The card's end moved three days on, and there is no second pause in this period.
    expect(await page.getByText(/^Active until /).textContent()).not.toBe(before);
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'portal-pause');
    await expect.poll(() => gateway.accepted.some((m) => m.number === '+254712300570' && /tips are paused for 3 days/.test(m.message))).toBe(true);
  });
});
