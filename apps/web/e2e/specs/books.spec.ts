import { expect } from '@playwright/test';
import { generate } from 'otplib';
import { admin, partner, shot, signIn, testWithOwnServer } from '../support.ts';

/**
 * Decision 075: the admin closes November 2026 after filing its return, with the return's reference;
 * they cannot confirm it themselves; a second admin (made by the operator on the server, as the
 * refunds spec's) confirms with a code from their authenticator; the Tax screen's month and the
 * money bridge then say November is closed. Its own server: closing a month changes what others read.
 * Lives in: apps/web/e2e/specs/books.spec.ts
 */
const test = testWithOwnServer({}, [partner]);

test('an admin closes November, a second admin confirms with their code, and the month says it is closed', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signIn(page, admin);
  await page.goto('/tax');
  const card = page.getByTestId('books-periods');
  await card.getByTestId('books-month').fill('2026-11');
  await card.getByTestId('books-close').click();
  const closeDialog = page.getByTestId('books-close-modal');
  await closeDialog.getByTestId('books-close-reference').fill('VAT3-2026-11-0042');
  await closeDialog.getByRole('button', { name: 'Ask to close' }).click();
  await expect(closeDialog.getByTestId('form-success')).toContainText('waits for a second admin');
  await expect(page.getByTestId('books-period-2026-11')).toContainText('awaiting confirmation', { timeout: 10_000 });

  // The admin who asked cannot confirm.
  await page.getByTestId('books-confirm-2026-11').click();
  const confirmDialog = page.getByTestId('books-confirm-modal');
  await confirmDialog.getByTestId('books-confirm-code').fill('123456');
  await confirmDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirmDialog.getByTestId('form-error')).toContainText('you asked for this yourself');
  await confirmDialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByTestId('logout').click();

  // The second admin turns on their second factor, signs in with it, and confirms with a fresh code.
  const login = await request.post('/api/auth/login', { data: { email: partner.email, password: partner.password } });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const setup = await request.post('/api/auth/2fa/setup', { headers, data: {} });
  expect(setup.ok(), await setup.text()).toBe(true);
  const { secret } = (await setup.json()) as { secret: string };
  const enrolledAt = Math.floor(Date.now() / 1000) - 30;
  const enabled = await request.post('/api/auth/2fa/enable', { headers, data: { code: await generate({ secret, epoch: enrolledAt }) } });
  expect(enabled.ok(), await enabled.text()).toBe(true);
  await page.getByLabel('Email').fill(partner.email);
  await page.getByLabel('Password').fill(partner.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const signedInAt = Math.max(Math.floor(Date.now() / 1000), enrolledAt + 30);
  await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: signedInAt }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/tax');
  await page.getByTestId('books-confirm-2026-11').click();
  await confirmDialog.getByTestId('books-confirm-code').fill(await generate({ secret, epoch: signedInAt + 30 }));
  await confirmDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirmDialog.getByTestId('form-success')).toContainText('2026-11 is closed');
  await confirmDialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByTestId('books-period-2026-11')).toContainText('Closed');

  // Every screen of the month says so.
  await page.getByTestId('tax-month').fill('2026-11');
  await expect(page.getByTestId('tax-month-closed')).toContainText('November 2026 is closed (return reference VAT3-2026-11-0042)');
  await shot(page, 'books-closed');
  await page.goto('/reports?report=money-bridge&from=2026-11-01&to=2026-11-30');
  await expect(page.getByTestId('money-bridge-closed')).toContainText('November 2026 is closed (return reference VAT3-2026-11-0042)');
});
