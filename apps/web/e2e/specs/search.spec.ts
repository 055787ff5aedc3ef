import { createRequire } from 'node:module';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { admin, signIn, staff } from '../support.ts';

/**
 * Decision 067: a punter calls with a receipt, a phone or a name; one search box in the top bar (or
 * `/`, or Ctrl-K) finds it as it is typed, each result a link to its screen, within the staff
 * member's scope.
 */
test.use({ bypassCSP: true }); // axe-core is injected as a script tag

async function apiGet(request: APIRequestContext, who: { email: string; password: string }) {
  const login = await request.post('/api/auth/login', { data: who });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}`, 'x-requested-with': 'XMLHttpRequest' };
  return async <T>(path: string): Promise<T> => {
    const res = await request.get(path, { headers });
    expect(res.ok(), path).toBe(true);
    return (await res.json()) as T;
  };
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  const results = await page.evaluate(() => (window as unknown as { axe: { run: () => Promise<AxeResults> } }).axe.run());
  return results.violations.filter((v) => v.impact !== 'minor').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

test('an admin finds a payment by the first characters of its receipt and a client by a phone in +254 form', async ({ page, request }) => {
  const get = await apiGet(request, admin);
  const { transactions } = await get<{ transactions: { transaction_reference: string | null }[] }>('/api/mpesa-transactions?perPage=50');
  const receipt = transactions.find((t) => t.transaction_reference)!.transaction_reference!;
  const { clients } = await get<{ clients: { id: number; name: string; phone: string }[] }>('/api/clients?perPage=50');
  const client = clients[0]!;

  await signIn(page, admin);
  // The key works once the frame is on screen (as for a person, who presses it after seeing the page).
  await expect(page.getByTestId('search-open')).toBeVisible();
  await page.keyboard.press('/');
  const dialog = page.getByTestId('search-dialog');
  await expect(dialog.getByTestId('search-input')).toBeFocused();
  await dialog.getByTestId('search-input').fill(receipt.slice(0, 6).toLowerCase());
  const found = dialog.getByTestId('search-result-payment').filter({ hasText: receipt });
  await expect(found).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await found.click();
  await expect(page).toHaveURL(new RegExp(`/mpesa\\?search=${receipt}$`));
  await expect(page.getByTestId('search-dialog')).toHaveCount(0);

  await page.keyboard.press('Control+k');
  await dialog.getByTestId('search-input').fill(`+${client.phone.slice(0, 3)} ${client.phone.slice(3)}`);
  await expect(dialog.getByTestId('search-result-client').filter({ hasText: client.name })).toBeVisible();
  await dialog.getByTestId('search-input').press('Enter');
  await expect(page).toHaveURL(new RegExp(`/clients/${client.id}$`));
});

test("a staff member finds their own client by name on a phone, and no payment", async ({ page, request }) => {
  const get = await apiGet(request, staff);
  const { clients } = await get<{ clients: { id: number; name: string }[] }>('/api/clients?perPage=50');
  const own = clients[0]!;
  const adminGet = await apiGet(request, admin);
  const { transactions } = await adminGet<{ transactions: { transaction_reference: string | null }[] }>('/api/mpesa-transactions?perPage=50');
  const receipt = transactions.find((t) => t.transaction_reference)!.transaction_reference!;

  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, staff);
  await page.getByTestId('search-open').click();
  const dialog = page.getByTestId('search-dialog');
  await dialog.getByTestId('search-input').fill(own.name.toLowerCase());
  await expect(dialog.getByTestId('search-result-client').filter({ hasText: own.name }).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByTestId('search-input').fill(receipt);
  await expect(dialog.getByTestId('search-status')).toHaveText('Nothing found.');
  await expect(dialog.getByTestId('search-result-payment')).toHaveCount(0);
});
