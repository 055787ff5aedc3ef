import { expect, test } from '@playwright/test';
import { admin, signIn, staff } from '../support.ts';

test.describe('Catalogue', () => {
  test('an admin adds a bet category and an SMS package for it, and staff can sell it', async ({ page }) => {
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Catalogue' }).click();
    await expect(page).toHaveURL(/\/catalogue$/);
    await expect(page.getByRole('heading', { name: 'Catalogue' })).toBeVisible();

    await page.getByTestId('add-bet-category').click();
    const modal = page.getByRole('dialog', { name: 'Add bet category' });
    await modal.getByLabel('Name').fill('Sure Wins');
    await modal.getByLabel('Code').fill('d2');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText('Another bet category already has this code').first()).toBeVisible();
    await modal.getByLabel('Code').fill('sw 9');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByTestId('form-success')).toHaveText('Bet category saved successfully');
    await modal.getByRole('button', { name: 'Close' }).first().click();
    const row = page.getByTestId('bet-categories-table').getByTestId('table-row').filter({ hasText: 'Sure Wins' });
    await expect(row).toContainText('SW9');
    await expect(row).toContainText('None yet');

    await page.getByRole('link', { name: 'SMS tips prices' }).click();
    await expect(page).toHaveURL(/\/tips\/prices\/sms-tips$/);
    await page.getByTestId('add-package').click();
    const add = page.getByRole('dialog', { name: 'Add package' });
    await add.getByRole('button', { name: 'Add package' }).click();
    await expect(add.getByText('Choose a bet category', { exact: true })).toBeVisible();
    await expect(add.getByText('The duration in days is required').first()).toBeVisible();
    await add.getByRole('textbox', { name: 'Bet category' }).click();
    await page.getByRole('option', { name: 'Sure Wins (SW9)' }).click();
    await add.getByTestId('package-duration').fill('3');
    await expect(add.getByText('3 days')).toBeVisible();
    await add.getByTestId('package-name').fill('Sure Wins SMS 3 days');
    await add.getByTestId('package-price').fill('150');
    await add.getByRole('button', { name: 'Add package' }).click();
    await expect(add.getByTestId('form-success')).toHaveText('Package added successfully');
    await add.getByRole('button', { name: 'Close' }).first().click();
    const pkg = page.getByTestId('prices-table').getByTestId('table-row').filter({ hasText: 'Sure Wins SMS 3 days' });
    await expect(pkg).toContainText('KES 150.00');
    await expect(pkg).toContainText('3 days');

    await page.getByTestId('add-package').click();
    await add.getByRole('textbox', { name: 'Bet category' }).click();
    await page.getByRole('option', { name: 'Sure Wins (SW9)' }).click();
    await add.getByTestId('package-duration').fill('3');
    await add.getByTestId('package-name').fill('Again');
    await add.getByTestId('package-price').fill('120');
    await add.getByRole('button', { name: 'Add package' }).click();
    await expect(add.getByText('This bet category already has a package of this medium and duration').first()).toBeVisible();
    await add.getByRole('button', { name: 'Close' }).first().click();

    await page.goto('/catalogue');
    await expect(
      page.getByTestId('bet-categories-table').getByTestId('table-row').filter({ hasText: 'Sure Wins' }),
    ).toContainText('1 SMS · 0 Web');

    await page.goto('/tips/subscribers/add');
    await page.getByRole('textbox', { name: 'Bet category' }).click();
    await expect(page.getByRole('option', { name: 'Sure Wins (SW9)' })).toBeVisible();
    await page.getByRole('option', { name: 'Sure Wins (SW9)' }).click();
    await page.getByRole('textbox', { name: 'Duration' }).click();
    await expect(page.getByRole('option', { name: '3 Days' })).toBeVisible();
  });

  test('an admin adds a Bet4Me plan and takes it off sale', async ({ page }) => {
    // A retry on the same shared server finds the first try's plan: it adds one of another name.
    const plan = test.info().retry === 0 ? 'Fortnight' : `Fortnight ${test.info().retry + 1}`;
    await signIn(page, admin);
    await page.goto('/catalogue');
    await page.getByRole('tab', { name: /Bet4Me plans/ }).click();
    await page.getByTestId('add-plan').click();
    const modal = page.getByRole('dialog', { name: 'Add Bet4Me plan' });
    await modal.getByLabel('Name').fill(plan);
    await modal.getByTestId('plan-duration').fill('14');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText('The price must be a positive amount, like 250 or 99.50').first()).toBeVisible();
    await modal.getByTestId('plan-price').fill('1800');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByTestId('form-success')).toHaveText('Plan saved successfully');
    await modal.getByRole('button', { name: 'Close' }).first().click();
    const row = page.getByTestId('plans-table').getByTestId('table-row').filter({ hasText: plan });
    await expect(row).toContainText('14 days');
    await expect(row).toContainText('KES 1,800.00');
    await expect(row).toContainText('On sale');
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${plan}` });
    await expect(edit.getByTestId('plan-price')).toHaveValue('1,800');
    await edit.getByLabel('On sale').click({ force: true });
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByTestId('form-success')).toHaveText('Plan saved successfully');
    await edit.getByRole('button', { name: 'Close' }).first().click();
    await expect(row).toContainText('Off sale');
  });

  test('staff have no Catalogue entry and the server refuses them', async ({ page }) => {
    await signIn(page, staff);
    await expect(page.getByRole('link', { name: 'Catalogue' })).toHaveCount(0);
    await page.goto('/catalogue');
    await expect(page.getByText('You are not authorized to perform that action.').first()).toBeVisible();
  });
});
