import { expect, test } from '@playwright/test';
import { admin, signIn, staff } from '../support.ts';

test.describe('Backups', () => {
  test('an admin backs up now and sees the backup verified', async ({ page }) => {
    test.setTimeout(90_000); // a backup of the demo data takes a few seconds on a busy machine
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Backups' }).click();
    await expect(page).toHaveURL(/\/backups$/);
    await expect(page.getByTestId('backup-schedule')).toContainText('0 2 * * * (Africa/Nairobi)');

    await page.getByTestId('backup-now').click();
    const row = page.getByTestId('backups-table').getByTestId('table-row').first();
    await expect(row).toContainText('Verified', { timeout: 60_000 });
    await expect(row).toContainText(/\d+(\.\d)? (B|kB|MB)/);

    // The download itself is proven by the API test (backups-api.test.ts: the bytes match the checksum).
    await expect(row.getByRole('button', { name: 'Download' })).toBeVisible();
  });

  test('staff have no Backups screen', async ({ page }) => {
    await signIn(page, staff);
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Backups' })).toHaveCount(0);
  });
});
