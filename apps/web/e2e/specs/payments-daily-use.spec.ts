import { expect, test, type Locator, type Page } from '@playwright/test';
import { admin, shot, signIn, simulatePayment, staff } from '../support.ts';

/**
 * Issue 27, items 11–14 and 17: claiming a payment and reading payments as staff do every day.
 * A full Kenyan name of three names and 30 characters, as M-Pesa sends it and as a payee has it.
 */
const SENDER = 'MAXIMILLIAN ODHIAMBO KIPCHUMBA';
const PAYEE = 'Christabel Wanjiku Nyamweya-Oo';

/** `text` is shown whole in its table cell: nothing cut sideways or below. */
async function expectWhole(scope: Locator, text: string) {
  const cell = scope.getByText(text, { exact: true }).first();
  await expect(cell).toBeVisible();
  const sizes = await cell.evaluate((el) => {
    const box = el.closest('td') ?? el;
    return { width: box.scrollWidth, clientWidth: box.clientWidth, height: box.scrollHeight, clientHeight: box.clientHeight, own: el.scrollWidth, ownClient: el.clientWidth };
  });
  expect(sizes.width, `${text}: cut sideways`).toBeLessThanOrEqual(sizes.clientWidth);
  expect(sizes.own, `${text}: cut by an ellipsis`).toBeLessThanOrEqual(Math.max(sizes.ownClient, sizes.clientWidth));
  expect(sizes.height, `${text}: cut below`).toBeLessThanOrEqual(sizes.clientHeight);
}

async function isInDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null && document.activeElement !== document.body);
}

test('a claim by keyboard ends green with nothing re-reading its preview, and the payment reads whole at 1366 px', async ({ page, request }) => {
  const login = await request.post('/api/auth/login', { data: admin });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const form = (await (await request.get('/api/tips/subscribers/new', { headers })).json()) as { bet_categories: { id: number }[]; durations: Record<string, string> };
  const phone = `07${Date.now().toString().slice(-8)}`;
  // The durations are every package's; other specs on the shared server add packages to other
  // categories, so the first category is given the first duration it sells.
  let stored = null;
  for (const duration of Object.keys(form.durations)) {
    stored = await request.post('/api/tips/subscribers/store', {
      headers,
      data: { name: PAYEE, phone, bet_category_id: form.bet_categories[0]!.id, transmission_medium_id: 'sms', duration: Number(duration) },
    });
    if (stored.ok()) break;
  }
  expect(stored?.ok(), await stored?.text()).toBe(true);

  const receipt = `SK${Date.now().toString().slice(-8)}`;
  simulatePayment(['--amount', '125', '--account', 'HELLO', '--phone', '0799000465', '--msisdn-mode', 'masked', '--name', SENDER, '--receipt', receipt]);
  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, admin);

  // Item 12: the dashboard shows the masked number /mpesa shows, not an empty Phone.
  const recent = page.getByTestId('recent-payments-table').getByRole('row').filter({ hasText: receipt });
  await expect(recent).toContainText('2547 ***** 465');

  // Items 11 and 14: the claim, by keyboard.
  const previews: number[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/claim-preview')) previews.push(res.status());
  });
  await page.goto(`/mpesa/unclaimed?search=${receipt}`);
  await page.getByTestId(`claim-${receipt}`).click();
  const dialog = page.getByTestId('claim-modal');
  await dialog.getByTestId('claim-search').fill(PAYEE);
  await dialog.getByTestId('claim-search').press('Enter');
  await dialog.getByRole('button', { name: `Claim to ${PAYEE}` }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('claim-confirm')).toBeVisible();
  await expect(dialog.getByTestId('claim-confirm')).toBeFocused();
  await expect(dialog.getByTestId('claim-confirm')).toHaveAccessibleName(new RegExp(`^Claim KES\\s125\\.00 .* to ${PAYEE} `)); // KES and the amount are joined by a no-break space
  expect(await isInDialog(page)).toBe(true);
  await expect(dialog.getByTestId('claim-buys').locator('li').first()).toBeVisible();
  expect(previews).toEqual([200]);

  const refreshed = page.waitForResponse((res) => res.url().includes('/api/mpesa-transactions/unclaimed') && res.request().method() === 'GET');
  await dialog.getByTestId('confirm-claim').click();
  await expect(page.getByText('Payment claimed successfully')).toBeVisible();
  await refreshed; // the lists the claim refreshed have been re-read: a preview re-read would have gone with them
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(previews).toEqual([200]);
  await expect(page.getByText(/already been claimed/)).toHaveCount(0);

  // Item 13: at 1366 px both names are read whole on /mpesa.
  await page.goto(`/mpesa?search=${receipt}`);
  const table = page.getByTestId('mpesa-table');
  await expectWhole(table, SENDER);
  await expectWhole(table, PAYEE);
  await shot(page, 'mpesa-long-names');
});

test('every New Bet dialog starts in its first field, from the dashboard and from Active clients', async ({ page }) => {
  await signIn(page, admin);
  await page.getByTestId('dashboard-active-clients').getByRole('button', { name: /New Bet/ }).first().click();
  await expect(page.getByTestId('bet-stake')).toBeFocused();
  await page.getByTestId('new-bet-modal').getByRole('button', { name: 'Close' }).last().click();

  await page.goto('/clients/active');
  await page.getByRole('button', { name: /New Bet/ }).first().click();
  await expect(page.getByTestId('bet-stake')).toBeFocused();
});

test('staff opening /mpesa/unclaimed see no payment figures, and the server gives them none', async ({ page, request }) => {
  const login = await request.post('/api/auth/login', { data: staff });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  for (const path of ['/api/mpesa-transactions/unclaimed', '/api/mpesa-transactions', '/api/mpesa-transactions/unclaimed/export']) {
    const res = await request.get(path, { headers });
    expect(res.status(), path).toBe(403);
    expect(await res.text(), path).not.toMatch(/total_deposit|total_unclaimed/);
  }

  await signIn(page, staff);
  await page.goto('/mpesa/unclaimed');
  await expect(page.getByText(/not authori[sz]ed|not allowed|permission/i).first()).toBeVisible();
  await expect(page.getByTestId('total-deposit')).toHaveCount(0);
  await expect(page.getByTestId('total-unclaimed')).toHaveCount(0);
  await expect(page.getByText(/KES \d/)).toHaveCount(0);
});
