import { expect, test } from '@playwright/test';
import { admin, shot, signIn } from '../support.ts';

/** Decision 060: the compliance calendar on the admin dashboard. */
test('an admin records the ODPC certificate and the DPO, and sees the lapsed certificate as an overdue alert', async ({ page }) => {
  await signIn(page, admin);
  await page.goto('/dashboard');
  const alerts = page.getByTestId('compliance-alerts');
  await expect(alerts.getByTestId('compliance-alert-dpo')).toContainText('Data-protection officer: not recorded.');

  await alerts.getByRole('button', { name: 'Open the compliance calendar' }).click();
  await page.getByTestId('compliance-edit-dpo').click();
  const dialog = page.getByTestId('compliance-item-modal');
  await dialog.getByTestId('compliance-value').fill('Amina Otieno, dpo@betdesk.test');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('compliance-calendar').getByTestId('compliance-row-dpo')).toContainText('In order');

  // A certificate issued 25 months ago ended a month ago.
  const issued = new Date();
  issued.setUTCMonth(issued.getUTCMonth() - 25);
  await page.getByTestId('compliance-edit-odpc_registration').click();
  await dialog.getByTestId('compliance-value').fill('ODPC/DC/2024/0042');
  await dialog.getByTestId('compliance-issued-on').fill(issued.toISOString().slice(0, 10));
  await dialog.getByRole('button', { name: 'Save' }).click();
  const row = page.getByTestId('compliance-calendar').getByTestId('compliance-row-odpc_registration');
  await expect(row).toContainText('Overdue');
  await shot(page, 'compliance-calendar');
  await page.getByTestId('compliance-calendar').getByRole('button', { name: 'Close' }).click();

  await expect(alerts.getByTestId('compliance-alert-odpc_registration')).toContainText('ended on');
  await expect(alerts.getByTestId('compliance-alert-dpo')).toHaveCount(0);
  await shot(page, 'compliance-alert');
});
