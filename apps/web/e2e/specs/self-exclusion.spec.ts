import { expect, type Page } from '@playwright/test';
import { admin, shot, signIn, testWithOwnServer } from '../support.ts';

/**
 * Issue 49, item 1 (decision 059): a punter excludes themselves on the portal from a cheap phone
 * (360 px), and an admin sees it on the register. Its own server, for the fake SMS gateway that
 * delivers the sign-in code.
 */
const test = testWithOwnServer();

async function signInToPortal(page: Page, gateway: { accepted: { number: string; message: string }[] }, local: string, e164: string) {
  await page.goto('/portal/sign-in?next=/portal/account');
  await page.getByLabel('Phone number').fill(local);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  let code = '';
  await expect
    .poll(() => {
      const sms = gateway.accepted.find((m) => m.number === e164 && /sign-in code/.test(m.message));
      code = sms?.message.match(/\b(\d{6})\b/)?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await page.getByLabel(/6-digit code/).fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('Self-exclusion', () => {
  test('a punter excludes themselves for 90 days on a 360 px phone; the admin register counts it', async ({ page, gateway }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signInToPortal(page, gateway, '0712 300 490', '+254712300490');
    await expect(page).toHaveURL(/\/portal\/account/);
    await expect(page.getByRole('heading', { name: 'Take a break: self-exclusion' })).toBeVisible();
    await page.getByLabel('90 days').check();
    await page.getByLabel('I understand it cannot be ended early').check();
    await page.getByTestId('exclude-me').click();
    await expect(page.getByRole('status')).toContainText('You are excluded until');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'portal-self-exclusion');
    await expect.poll(() => gateway.accepted.some((m) => m.number === '+254712300490' && /excluded from Betdesk until/.test(m.message))).toBe(true);

    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, admin);
    await page.goto('/exclusions');
    await expect(page.getByRole('heading', { name: 'Self-exclusion', level: 1 })).toBeVisible();
    await expect(page.getByTestId('excluded-now')).toContainText('1');
    const register = page.getByTestId('exclusions-register');
    await expect(register).toContainText('0712300490');
    await expect(register).toContainText('90 days');
    await expect(register).toContainText('Portal');
    await shot(page, 'exclusions-register');
  });
});
