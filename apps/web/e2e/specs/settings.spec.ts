import { expect, test } from '@playwright/test';
import { admin, signIn, staff } from '../support.ts';

test.describe('Settings', () => {
  test('an admin changes a number and a text, with the rules of each setting', async ({ page }) => {
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    const table = page.getByTestId('settings-table');
    await expect(table).toContainText('Bonus rate percent');
    await expect(page.getByTestId('setting-value-login_window_minutes')).toHaveText('15');

    await page.getByTestId('edit-setting-login_window_minutes').click();
    const modal = page.getByRole('dialog', { name: 'Login window minutes' });
    const input = modal.getByTestId('setting-input');
    await input.fill('');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText('A number is required').first()).toBeVisible();
    await input.fill('5000');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText('The value must be between 1 and 1440 minutes').first()).toBeVisible();
    await input.fill('20');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByTestId('form-success')).toHaveText('Setting saved successfully');
    await expect(page.getByTestId('setting-value-login_window_minutes')).toHaveText('20');
    await expect(table.getByTestId('table-row').filter({ hasText: 'Login window minutes' })).toContainText('by ');
    await modal.getByRole('button', { name: 'Close' }).first().click();

    await page.getByTestId('edit-setting-subscription_reminder_sms').click();
    const text = page.getByRole('dialog', { name: 'Subscription reminder sms' }).getByTestId('setting-input');
    await text.fill('Hi {name}, renew now.');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog').getByText(/must keep \{package\}, \{expiry\}/).first()).toBeVisible();
    await text.fill('Hi {name}, your {package} ends on {expiry}. Renew by M-Pesa.');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog').getByTestId('form-success')).toHaveText('Setting saved successfully');
    await expect(page.getByTestId('setting-value-subscription_reminder_sms')).toHaveText(
      'Hi {name}, your {package} ends on {expiry}. Renew by M-Pesa.',
    );
  });

  test("an admin words the portal's description in Kiswahili, and a Kiswahili reader sees it on the home page", async ({ page }) => {
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByTestId('setting-value-portal_description_sw')).toHaveText(
      'Tips bora za kubeti mpira kwa SMS na kwenye tovuti, unalipa kwa M-Pesa.',
    );
    await page.getByTestId('edit-setting-portal_description_sw').click();
    const modal = page.getByRole('dialog', { name: 'Portal description sw' });
    await modal.getByTestId('setting-input').fill('Tips za mpira kila siku, unalipa kwa M-Pesa.');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByTestId('form-success')).toHaveText('Setting saved successfully');

    await page.goto('/portal');
    await expect(page.getByText('Premium football betting tips by SMS and on the web, paid by M-Pesa.')).toBeVisible();
    await page.getByRole('button', { name: 'Soma kwa Kiswahili' }).click();
    await expect(page.getByText('Tips za mpira kila siku, unalipa kwa M-Pesa.')).toBeVisible();
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Tips za mpira kila siku, unalipa kwa M-Pesa.');
  });

  test('staff do not see Settings and the server refuses them', async ({ page }) => {
    await signIn(page, staff);
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await page.goto('/settings');
    await expect(page.getByText('You are not authorized to perform that action.').first()).toBeVisible();
    // The refusal alone: no table, filter or export drawn around it.
    await expect(page.getByRole('heading', { name: 'This screen is for admins' })).toBeVisible();
    await expect(page.getByTestId('settings-table')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Export CSV/ })).toHaveCount(0);
  });
});
