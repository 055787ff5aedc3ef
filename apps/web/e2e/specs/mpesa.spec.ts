import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { admin, claimedPayment, claimedRowOnPaymentsScreen, signIn, simulatePayment } from '../support.ts';

const shot = (page: Page, name: string) =>
  process.env.E2E_SCREENSHOTS ? page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: true }) : null;

async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: admin });
  const token = (await login.json()).token as string;
  return async <T>(path: string): Promise<T> => {
    const res = await request.get(path, { headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } });
    expect(res.ok()).toBe(true);
    return (await res.json()) as T;
  };
}

test.describe('M-Pesa payments', () => {
  test('a simulated payment shows on the dashboard and on /mpesa', async ({ page }) => {
    const receipt = `SE2E${Date.now().toString().slice(-6)}`;
    simulatePayment(['--amount', '275', '--account', 'HELLO', '--msisdn-mode', 'masked', '--name', 'Esther Wairimu', '--receipt', receipt]);

    await signIn(page, admin);
    await expect(page.getByTestId('recent-payments-table')).toContainText(receipt);

    await page.goto('/mpesa');
    await expect(page.getByTestId('total-deposit')).toBeVisible();
    await page.getByPlaceholder('Sender name, phone or ref, then Enter').fill(receipt);
    await page.keyboard.press('Enter');
    const table = page.getByTestId('mpesa-table');
    await expect(table).toContainText('ESTHER WAIRIMU');
    await expect(table).toContainText('2547 ***** ');
    await expect(page.getByTestId(`status-${receipt}`)).toHaveText(/^unclaimed$/i);
    await shot(page, 'mpesa-transactions');
  });

  test("an admin claims an unclaimed payment in the browser and the subscriber's subscription appears", async ({ page, request }) => {
    const api = await adminApi(request);
    const { subscribers } = await api<{ subscribers: { id: number; name: string }[] }>('/api/tips/subscribers/active?perPage=50');
    const subscriber = subscribers[0]!;
    const { packages } = await api<{ packages: { name: string; price: number }[] }>('/api/tips/prices/sms-tips');
    const d2 = packages.find((p) => p.name.startsWith('Daily 2 Odds'))!;
    const before = await api<{ subscriber: { number_of_subscriptions: number } }>(`/api/tips/subscribers/show?subscriber_id=${subscriber.id}`);

    const receipt = `SC2E${Date.now().toString().slice(-6)}`;
    simulatePayment(['--amount', String(d2.price), '--account', 'D2', '--phone', '0799123456', '--msisdn-mode', 'masked', '--receipt', receipt]);

    await signIn(page, admin);
    await page.goto('/mpesa/unclaimed');
    await page.getByPlaceholder('Sender name, phone or ref, then Enter').fill(receipt);
    await page.keyboard.press('Enter');
    await page.getByTestId(`claim-${receipt}`).click();
    const modal = page.getByTestId('claim-modal');
    await modal.getByTestId('claim-search').fill(subscriber.name);
    await modal.getByTestId('claim-search').press('Enter');
    const candidate = modal.getByTestId('claim-candidate').filter({ hasText: 'Tips subscriber' }).filter({ hasText: subscriber.name }).first();
    await shot(page, 'mpesa-claim');
    await candidate.getByRole('button', { name: 'Claim' }).click();
    await modal.getByTestId('confirm-claim').click();
    await expect(page.getByText('Payment claimed successfully')).toBeVisible();

    await page.goto('/mpesa');
    await page.getByPlaceholder('Sender name, phone or ref, then Enter').fill(receipt);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(`status-${receipt}`)).toHaveText(/^claimed$/i);

    const after = await api<{ subscriber: { number_of_subscriptions: number } }>(`/api/tips/subscribers/show?subscriber_id=${subscriber.id}`);
    expect(after.subscriber.number_of_subscriptions).toBe(before.subscriber.number_of_subscriptions + 1);
    await page.goto(`/tips/subscribers/view/${subscriber.id}`);
    await expect(page.getByText(String(after.subscriber.number_of_subscriptions)).first()).toBeVisible();
    await shot(page, 'mpesa-subscriber-after-claim');
  });

  test('unclaiming a payment asks first: cancel keeps it claimed, confirm unclaims it', async ({ page, request }) => {
    const { headers, receipt, subscriber } = await claimedPayment(request, { receiptPrefix: 'SU2E', amount: 130, name: 'Brian Otieno' });
    await claimedRowOnPaymentsScreen(page, receipt);

    await page.getByTestId(`unclaim-${receipt}`).click();
    await expect(page.getByText('Are you sure you want to do this!')).toBeVisible();
    const details = page.getByTestId('unclaim-details');
    await expect(details).toContainText(subscriber.name);
    await expect(details).toContainText(receipt);
    await expect(details).toContainText('subscription it paid for ends now');
    await shot(page, 'mpesa-unclaim-confirm');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText('Are you sure you want to do this!')).toHaveCount(0);
    await expect(page.getByTestId(`status-${receipt}`)).toHaveText(/^claimed$/i);
    const still = await (await request.get(`/api/mpesa-transactions/search?search=${receipt}`, { headers })).json();
    expect(still.transactions[0].status).toBe('claimed');

    await page.getByTestId(`unclaim-${receipt}`).click();
    await page.getByTestId('confirm-trash').click();
    await expect(page.getByText('Payment unclaimed successfully')).toBeVisible();
    await expect(page.getByTestId(`status-${receipt}`)).toHaveText(/^unclaimed$/i);
  });

  test('the tips deposits screen lists tips payments', async ({ page }) => {
    await signIn(page, admin);
    await page.goto('/tips/mpesa/all');
    const table = page.getByTestId('tips-deposits-table');
    for (const header of ['Phone No', 'Sender Name', 'Amount', 'Ref No.', 'Sent On', 'Status']) {
      await expect(table.getByText(header, { exact: true }).first()).toBeVisible();
    }
    await expect(table).toContainText('Claimed');
    await shot(page, 'tips-deposits');
  });
});
