import { expect, test } from '@playwright/test';
import { screenTexts } from '@betdesk/contract';
import { admin, signIn, staff } from '../support.ts';

test.describe('signing in and out', () => {
  test('shows the sign-in page with its text and refuses a wrong password', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(screenTexts.signIn)).toBeVisible();
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('login-error')).toContainText('These credentials do not match our records.');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('requires both fields before calling the server', async ({ page }) => {
    await page.goto('/login');
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/login')) calls += 1;
    });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('The email is required')).toBeVisible();
    expect(calls).toBe(0);
  });

  test('lands on the dashboard with the token stored, and logout returns to /login', async ({ page }) => {
    await signIn(page, admin);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[\w-]{40,}$/);
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/me');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('sends the browser to /login when the token has expired or been revoked', async ({ page, request }) => {
    await signIn(page, staff);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    // Revoke the session behind the browser's back, as an expiry would.
    const out = await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } });
    expect(out.status()).toBe(200);
    await page.goto('/me');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('layout and menus', () => {
  test('an admin sees both sections with the admin-only entries', async ({ page }) => {
    await signIn(page, admin);
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByText('TIPS SECTION')).toBeVisible();
    await expect(nav.getByText('BET4ME SECTION')).toBeVisible();
    for (const entry of ['Premium Tips', 'Update Winnings', 'Tips Prices', 'My Clients', 'Bet History', 'Bonus History', 'Users']) {
      await expect(nav.getByText(entry, { exact: true }).first()).toBeVisible();
    }
    await expect(nav.getByText('Mpesa Transactions', { exact: true })).toHaveCount(2);
    await expect(page.getByText(`© ${new Date().getFullYear()}`)).toBeVisible();
  });

  test('staff see only their entries', async ({ page }) => {
    await signIn(page, staff);
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    for (const entry of ['Premium Tips', 'Update Winnings', 'Subscribers', 'My Clients']) {
      await expect(nav.getByText(entry, { exact: true }).first()).toBeVisible();
    }
    for (const entry of ['Tips Prices', 'Bet History', 'Bonus History', 'Users', 'Mpesa Transactions']) {
      await expect(nav.getByText(entry, { exact: true })).toHaveCount(0);
    }
    await nav.getByText('Subscribers', { exact: true }).click();
    await expect(nav.getByText('Active', { exact: true }).first()).toBeVisible();
    await expect(nav.getByText('All Subscribers', { exact: true })).toHaveCount(0);
  });

  test('collapses the sidebar behind a burger under 768 px', async ({ page }) => {
    await page.setViewportSize({ width: 700, height: 900 });
    await signIn(page, admin);
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav).toBeHidden();
    await page.getByTestId('nav-burger').click();
    await expect(nav).toBeVisible();
  });
});

test.describe('profile and 404', () => {
  test('My Profile shows the user and the change-password modal', async ({ page }) => {
    await signIn(page, staff);
    await page.getByRole('link', { name: 'My Profile' }).click();
    await expect(page).toHaveURL(/\/me$/);
    await expect(page.getByText('Wanjiku Kamau').first()).toBeVisible();
    await expect(page.getByText('0712345678')).toBeVisible();
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByLabel('New password')).toBeVisible();
    await expect(page.getByLabel('Retype password')).toBeVisible();
  });

  test('an unknown path shows the 404 page with links to the dashboard and back', async ({ page }) => {
    await signIn(page, admin);
    await page.goto('/no/such/screen');
    await expect(page.getByText(screenTexts.notFoundTitle)).toBeVisible();
    await expect(page.getByText(screenTexts.notFoundBody)).toBeVisible();
    await page.getByRole('link', { name: /dashboard/i }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('changing the password', () => {
  test('saves it, says so, logs the user out, and the new password signs in', async ({ page }) => {
    const otieno = { email: 'otieno@betdesk.local', password: 'betdesk-demo' };
    await signIn(page, otieno);
    await page.goto('/me');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('Retype password').fill('short');
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByText('The password must be at least 8 characters').first()).toBeVisible();
    await page.getByLabel('New password').fill('otieno-new-password');
    await page.getByLabel('Retype password').fill('otieno-new-password');
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByText('Done! You need to login again...').first()).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await signIn(page, { email: otieno.email, password: 'otieno-new-password' });
  });
});
