import { expect, test } from '@playwright/test';
import { admin, claimedPayment, claimedRowOnPaymentsScreen, shot, signIn, simulatePayment } from '../support.ts';

test.describe('Staff tools', () => {
  test('a simulated payment appears on an open dashboard without a reload, with a toast for the admin', async ({ page }) => {
    await signIn(page, admin);
    await expect(page.getByTestId('recent-payments-table')).toBeVisible();
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-connected', 'true');
    // A marker on the window survives only if the page is never reloaded.
    await page.evaluate(() => ((window as unknown as { stillSamePage: boolean }).stillSamePage = true));

    const receipt = `SLV${Date.now().toString().slice(-7)}`;
    simulatePayment(['--amount', '500', '--account', 'LIVE1', '--msisdn-mode', 'masked', '--name', 'John Doe', '--receipt', receipt]);

    await expect(page.getByText('Payment received: KES 500 from JOHN DOE (LIVE1)')).toBeVisible();
    await expect(page.getByTestId('recent-payments-table')).toContainText(receipt);
    expect(await page.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage)).toBe(true);
  });

  test('the audit screen shows a claim with its before and after, reached from the payment\'s History link', async ({ page, request }) => {
    const { receipt, transaction, subscriber } = await claimedPayment(request, { receiptPrefix: 'SAU', amount: 140, name: 'Grace Audit' });
    await claimedRowOnPaymentsScreen(page, receipt);
    await page.getByTestId(`history-mpesa_payment-${transaction.id}`).click();

    await expect(page).toHaveURL(new RegExp(`/audit\\?entity=mpesa_payment&entity_id=${transaction.id}$`));
    const table = page.getByTestId('audit-table');
    await expect(table).toContainText('Payment: claim');
    await expect(table).toContainText('M-Pesa payment #');
    await expect(table).toContainText('Admin');
    const diff = table.getByTestId('audit-diff').first();
    await expect(diff.locator('[data-changed]').filter({ hasText: 'status' })).toContainText('unclaimed');
    await expect(diff.locator('[data-changed]').filter({ hasText: 'status' })).toContainText('claimed');
    await expect(diff).toContainText(String(subscriber.id));
    await expect(page.getByTestId('audit-total')).toHaveText('1 change');
    await shot(page, 'audit-claim');

    // The filters live in the URL: a reload keeps them.
    await page.reload();
    await expect(page.getByTestId('audit-total')).toHaveText('1 change');
  });
});
