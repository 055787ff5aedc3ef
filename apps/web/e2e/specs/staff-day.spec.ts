import { expect, test } from '@playwright/test';
import { signIn, staff } from '../support.ts';

test.describe("A staff member's day: the open bets a click away", () => {
  test('staff reach Open bets from the menu and the dashboard, and enter a profit from the client page', async ({ page, request }) => {
    const login = await request.post('/api/auth/login', { data: staff });
    const headers = { authorization: `Bearer ${(await login.json()).token as string}`, 'x-requested-with': 'XMLHttpRequest' };
    const { active_clients: clients } = await (await request.get('/api/clients/active?perPage=50', { headers })).json();
    const client = clients[0] as { id: number; name: string };
    const description = `Staff day ${Date.now()}: Gor Mahia to win`;
    const opened = await request.post('/api/bets/save', { headers, data: { client_id: client.id, name: client.name, stake: 100, description } });
    expect(opened.status()).toBe(200);

    await signIn(page, staff);
    // The dashboard's count is a link to its list.
    await page.getByTestId('open-bets-count').getByRole('link').click();
    await expect(page).toHaveURL(/\/bets\/open$/);
    await expect(page.getByRole('heading', { name: 'Open Bets' })).toBeVisible();
    // The menu has the entry too.
    await page.goto('/dashboard');
    await page.getByTestId('nav-sidebar').getByText('My Clients').click();
    await page.getByTestId('nav-sidebar').getByRole('link', { name: 'Open bets' }).click();
    await expect(page).toHaveURL(/\/bets\/open$/);

    // The client's page lists the open bet with Enter Profit.
    await page.goto(`/clients/${client.id}`);
    const bet = page.getByTestId('client-open-bet').filter({ hasText: description });
    await expect(bet).toBeVisible();
    await bet.getByRole('button', { name: 'Enter Profit' }).click();
    const modal = page.getByTestId('enter-profit-modal');
    await modal.getByLabel(/Profit \(KES\)/).fill('50');
    await modal.getByRole('button', { name: 'Save profit' }).click();
    await expect(modal.getByTestId('form-success')).toBeVisible();
    await expect(page.getByTestId('client-open-bet').filter({ hasText: description })).toHaveCount(0);
  });

  test("a staff member's first screen on a phone (375 x 740) shows their counts, their clients and New Bet", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page, staff);
    const firstNewBet = page.getByTestId('dashboard-active-clients').getByTestId('new-bet').first();
    await expect(firstNewBet).toBeVisible();
    const bottomOf = async (testId: string) => {
      const box = await page.getByTestId(testId).first().boundingBox();
      expect(box, testId).not.toBeNull();
      return box!.y + box!.height;
    };
    const newBet = (await firstNewBet.boundingBox())!;
    expect(newBet.y + newBet.height).toBeLessThanOrEqual(740);
    expect(await bottomOf('open-bets-count')).toBeLessThanOrEqual(740);
    expect(await bottomOf('active-clients-count')).toBeLessThanOrEqual(740);
    // The clients come before the recent payments.
    const clientsAt = (await page.getByTestId('dashboard-active-clients').boundingBox())!.y;
    const paymentsAt = (await page.getByTestId('recent-payments-table').boundingBox())!.y;
    expect(clientsAt).toBeLessThan(paymentsAt);
    await page.screenshot({ path: test.info().outputPath('staff-dashboard-375.png') });
  });
});
