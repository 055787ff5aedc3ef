import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function runScript(script: string, args: string[]): void {
  execFileSync('node', ['--import', 'tsx', script, ...args], {
    cwd: root,
    env: {
      ...process.env,
      PORT: process.env.E2E_PORT ?? '3111',
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? `${root}/data/e2e`,
    },
    stdio: 'pipe',
  });
}

/** `npm run simulate:payment` against the E2E server, as a user would run it. */
export function simulatePayment(args: string[]): void {
  runScript('scripts/simulate-payment.ts', args);
}

/** `npm run simulate:sms` (an incoming SMS or opt-out, as Africa's Talking posts it) against the E2E server. */
export function simulateSms(args: string[]): void {
  runScript('scripts/simulate-sms.ts', args);
}

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
