import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

    // Download: a real browser download (the signed link, not a blob), under the backup's own name,
    // whose bytes hash to the SHA-256 the screen shows.
    const button = row.getByRole('button', { name: 'Download' });
    const name = (await button.getAttribute('data-testid'))!.replace(/^download-backup-/, '');
    expect(name).toMatch(/^betdesk-\d{8}T\d{6}Z-(pglite|postgres)\.sql\.gz$/);
    await row.getByTestId(`backup-sha-${name}`).hover();
    const shown = (await page.getByRole('tooltip').textContent())!.trim();
    expect(shown).toMatch(/^[0-9a-f]{64}$/);
    await expect(row.getByTestId(`backup-sha-${name}`)).toHaveText(`${shown.slice(0, 16)}…`);

    const downloading = page.waitForEvent('download');
    await button.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(name);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.length).toBeGreaterThan(1000);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(shown);
  });

  test('staff have no Backups screen', async ({ page }) => {
    await signIn(page, staff);
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Backups' })).toHaveCount(0);
  });
});
