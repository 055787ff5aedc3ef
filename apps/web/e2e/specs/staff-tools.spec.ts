import { expect, test, type APIRequestContext } from '@playwright/test';
import { admin, shot, signIn, simulatePayment } from '../support.ts';

async function adminHeaders(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: admin });
  return { authorization: `Bearer ${(await login.json()).token as string}`, 'x-requested-with': 'XMLHttpRequest' };
}

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
    const headers = await adminHeaders(request);
    const { subscribers } = await (await request.get('/api/tips/subscribers/active?perPage=50', { headers })).json();
    const subscriber = subscribers[0] as { id: number; name: string };
    const receipt = `SAU${Date.now().toString().slice(-7)}`;
    simulatePayment(['--amount', '140', '--account', 'HELLO', '--msisdn-mode', 'masked', '--name', 'Grace Audit', '--receipt', receipt]);
    const found = await (await request.get(`/api/mpesa-transactions/search?search=${receipt}`, { headers })).json();
    const transaction = found.transactions[0] as { id: number };
    const claim = await request.post('/api/mpesa-transactions/claim', {
      headers,
      data: { transaction_id: transaction.id, subscriber_id: subscriber.id },
    });
    expect(claim.status()).toBe(200);

    await signIn(page, admin);
    await page.goto('/mpesa');
    await page.getByPlaceholder('Sender name, phone or ref, then Enter').fill(receipt);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(`status-${receipt}`)).toHaveText(/^claimed$/i);
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
