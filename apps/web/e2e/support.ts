import { expect, type Page } from '@playwright/test';

/** Accounts of the E2E server (playwright.config.ts env and the demo seed). */
export const admin = { email: 'admin@betdesk.test', password: 'e2e-admin-password' };
export const staff = { email: 'wanjiku@betdesk.local', password: 'betdesk-demo' };

/** Signs in through the login form and waits for the dashboard. */
export async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}
