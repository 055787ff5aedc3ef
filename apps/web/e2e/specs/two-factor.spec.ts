import { expect, test as base } from '@playwright/test';
import { generate } from 'otplib';
import { admin, type OwnServer, shot, startOwnServer } from '../support.ts';

/**
 * Issue 21, a second factor for admins. Its own server, so enrolling its admin leaves the shared
 * E2E accounts alone, and with REQUIRE_ADMIN_2FA=1 as in production.
 */
const test = base.extend<{ ownServer: OwnServer }>({
  ownServer: [
    async ({}, use) => {
      const server = await startOwnServer({ REQUIRE_ADMIN_2FA: '1' });
      await use(server);
      await server.stop();
    },
    { timeout: 150_000 },
  ],
  baseURL: async ({ ownServer }, use) => {
    await use(ownServer.baseURL);
  },
});

test('an admin enrols on My Profile, signs out, and signs in again with a code from the app', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();

  // Without a second factor the dashboard is closed: the app sends the admin to the enrolment.
  await expect(page).toHaveURL(/\/me$/);
  await expect(page.getByTestId('two-factor-required')).toBeVisible();
  await page.getByTestId('two-factor-enrol').click();
  const modal = page.getByTestId('enrol-two-factor-modal');
  await expect(modal.getByTestId('two-factor-qr')).toBeVisible();
  const secret = await modal.getByTestId('two-factor-secret').getAttribute('data-secret');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shot(page, 'two-factor-enrol');

  const enrolledAt = Math.floor(Date.now() / 1000);
  await modal.getByLabel(/6-digit code/).fill(await generate({ secret: secret!, epoch: enrolledAt }));
  await modal.getByRole('button', { name: 'Turn on' }).click();
  await expect(modal.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await shot(page, 'two-factor-recovery-codes');
  await modal.getByTestId('recovery-codes-saved').click();
  await expect(page.getByTestId('two-factor-state')).toHaveText('On');
  await expect(page.getByTestId('two-factor-required')).toHaveCount(0);
  await expect(page.getByTestId('devices-table').getByTestId('device-row')).toHaveCount(1);
  await expect(page.getByTestId('devices-table')).toContainText('This device');
  await shot(page, 'two-factor-profile');

  await page.goto('/dashboard');
  await expect(page.getByTestId('welcome')).toBeVisible();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await shot(page, 'two-factor-challenge');
  // The enrolment took this 30-second step's code; a code is taken once, so sign in with the next one.
  await page.getByLabel('Authentication code').fill(await generate({ secret: secret!, epoch: enrolledAt + 30 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('welcome')).toBeVisible();
});
