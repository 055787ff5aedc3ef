import { expect, type APIRequestContext } from '@playwright/test';
import { generate } from 'otplib';
import { admin, partner, shot, signIn, testWithOwnServer } from '../support.ts';

/**
 * Decision 056: an admin who registers a new admin only asks for the rights; the user stays staff
 * until a second admin approves with a code from their authenticator, and the admin who asked cannot.
 * Its own server, on which the operator made two admins (the shared server has one).
 */
const test = testWithOwnServer({}, [partner]);

async function turnOnSecondFactor(request: APIRequestContext, who: { email: string; password: string }) {
  const login = await request.post('/api/auth/login', { data: who });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const setup = await request.post('/api/auth/2fa/setup', { headers, data: {} });
  const { secret } = (await setup.json()) as { secret: string };
  const enrolledAt = Math.floor(Date.now() / 1000) - 30;
  const enabled = await request.post('/api/auth/2fa/enable', { headers, data: { code: await generate({ secret, epoch: enrolledAt }) } });
  expect(enabled.ok(), await enabled.text()).toBe(true);
  return { secret, enrolledAt };
}

test('an admin asks to make a user an admin, and a second admin approves it with their code', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { secret, enrolledAt } = await turnOnSecondFactor(request, partner);

  // The first admin registers Baraka as an admin: he is registered as staff, his rights wait.
  await signIn(page, admin);
  await page.goto('/users');
  await page.getByTestId('register-user').click();
  await page.getByTestId('user-name').fill('Baraka Otieno');
  await page.getByTestId('user-phone').fill('0722987654');
  await page.getByTestId('user-email').fill('baraka@betdesk.test');
  await page.getByTestId('user-category').click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await expect(page.getByTestId('user-form-modal')).toContainText("Admin rights wait for another admin's approval");
  await page.getByTestId('user-form-modal').getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByTestId('success-popup-text')).toContainText('Their admin rights wait for another admin to approve them');
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('users-table').getByRole('row').filter({ hasText: 'Baraka Otieno' })).toContainText('Agent');
  const pending = page.getByTestId('admin-grants-pending').getByRole('row').filter({ hasText: 'Baraka Otieno' });
  await expect(pending).toContainText('New admin');
  await expect(pending).toContainText('Administrator');

  // The admin who asked cannot approve: the server's 403 shows in the dialog.
  await pending.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByTestId('approve-admin-grant-modal');
  await dialog.getByTestId('approve-admin-grant-code').fill('123456');
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog.getByTestId('form-error')).toContainText('You asked for these admin rights');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByTestId('logout').click();

  // The second admin signs in with their code; the dashboard's alert names the grant waiting.
  await page.getByLabel('Email').fill(partner.email);
  await page.getByLabel('Password').fill(partner.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const signedInAt = Math.max(Math.floor(Date.now() / 1000), enrolledAt + 30);
  await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: signedInAt }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('admin-grant-alerts')).toContainText('Administrator asks to make Baraka Otieno an admin');
  await shot(page, 'admin-grant-alert');

  // A wrong code is refused under the field; a fresh one makes Baraka an admin.
  await page.getByTestId('admin-grant-alerts').getByRole('link', { name: 'Open Users' }).click();
  await page.getByTestId('admin-grants-pending').getByRole('row').filter({ hasText: 'Baraka Otieno' }).getByRole('button', { name: 'Approve' }).click();
  await shot(page, 'admin-grant-approve');
  await dialog.getByTestId('approve-admin-grant-code').fill('000000');
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog.getByTestId('approve-admin-grant-code')).toHaveAccessibleDescription(/This code is not right/);
  await dialog.getByTestId('approve-admin-grant-code').fill(await generate({ secret, epoch: signedInAt + 30 }));
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog.getByTestId('form-success')).toContainText('Baraka Otieno is now an admin.');
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  await expect(page.getByTestId('users-table').getByRole('row').filter({ hasText: 'Baraka Otieno' })).toContainText('Admin');
  await expect(page.getByTestId('admin-grants-pending')).toHaveCount(0);
  await expect(page.getByTestId('admin-grants-recent')).toContainText('Baraka Otieno: made an admin');
  await expect(page.getByTestId('admin-grants-recent')).toContainText(`by ${partner.name}, asked by Administrator`);
  await shot(page, 'admin-grant-approved');
});
