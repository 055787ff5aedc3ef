import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { admin, shot, signIn, simulatePayment } from '../support.ts';

/**
 * Issue 20, items 9–11: what staff read out on the phone shows whole, a claim asks first, and every
 * dialog fits a 360 px phone with named buttons.
 */

const PHONE = { width: 360, height: 740 };
const LAPTOP = { width: 1366, height: 768 };

async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: admin });
  const token = (await login.json()).token as string;
  return async <T>(path: string): Promise<T> => {
    const res = await request.get(path, { headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } });
    expect(res.ok()).toBe(true);
    return (await res.json()) as T;
  };
}

/** The element holding exactly `text` shows all of it: nothing cut by an ellipsis or a narrow box. */
async function expectWhole(scope: Locator, text: string) {
  const cell = scope.getByText(text, { exact: true }).first();
  await expect(cell).toBeVisible();
  const sizes = await cell.evaluate((el) => {
    // The box that clips: the element itself or the table cell around it.
    const box = el.closest('td') ?? el;
    return { inner: el.scrollWidth, outer: box.clientWidth, boxScroll: box.scrollWidth };
  });
  expect(sizes.inner).toBeLessThanOrEqual(sizes.outer);
  expect(sizes.boxScroll).toBeLessThanOrEqual(sizes.outer);
}

/** The open dialog lies inside the viewport, every button in it is reachable and has a name. */
async function expectDialogFits(page: Page, what: string) {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog, what).toBeVisible();
  const width = page.viewportSize()!.width;
  // A drawer slides in from the side: measure it once it has arrived, not during the slide.
  await expect.poll(async () => (await dialog.boundingBox())!.x + (await dialog.boundingBox())!.width, { message: `${what}: right edge` }).toBeLessThanOrEqual(width);
  const box = (await dialog.boundingBox())!;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(width);
  const buttons = await dialog.getByRole('button').all();
  expect(buttons.length, what).toBeGreaterThan(0);
  for (const button of buttons) {
    if (!(await button.isVisible())) continue;
    const b = (await button.boundingBox())!;
    await expect(button, `${what}: a button without a name`).toHaveAccessibleName(/\S/);
    const name = await button.evaluate((el) => el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '');
    expect(b.x, `${what}: "${name}" left edge`).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width, `${what}: "${name}" right edge`).toBeLessThanOrEqual(width);
  }
  // What the dialog focuses first is named too (Mantine focuses its × when there is no field).
  const focused = dialog.locator(':focus');
  if ((await focused.count()) > 0) await expect(focused, `${what}: the focused control has no name`).toHaveAccessibleName(/\S/);
  await expect(dialog.getByRole('button', { name: 'Close' }).first(), `${what}: the × is named Close`).toBeVisible();
}

/** Closes the dialog with its named ×, which the phone user has to reach too. */
async function closeDialog(page: Page) {
  await page.getByRole('dialog').last().getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

test.describe('screens at 1366 and 360 px', () => {
  test('receipt codes and times show whole on /mpesa and on the dashboard, at 1366 and 360 px', async ({ page }) => {
    const receipt = `SW${Date.now().toString().slice(-8)}`;
    simulatePayment(['--amount', '125', '--account', 'HELLO', '--msisdn-mode', 'masked', '--name', 'Wanjiru Wide Name Kamau', '--receipt', receipt]);
    await signIn(page, admin);

    for (const viewport of [LAPTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard');
      const recent = page.getByTestId('recent-payments-table');
      await expectWhole(recent, receipt);

      await page.goto(`/mpesa?search=${receipt}`);
      const table = page.getByTestId('mpesa-table');
      await expectWhole(table, receipt);
      if (viewport === LAPTOP) {
        const row = table.getByTestId('table-row').filter({ hasText: receipt });
        const fitCells = await row.locator('td[data-fit]').all();
        expect(fitCells.length).toBeGreaterThanOrEqual(6);
        for (const cell of fitCells) {
          // Codes, phones, amounts, times, badges and buttons: whole, never "25 Nov 2026, 0…" or "Unclai".
          const text = (await cell.innerText()).trim();
          expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth), `"${text}" is cut`).toBe(true);
        }
      }
    }
    await shot(page, 'screens-mpesa');
  });

  test('claiming asks first, naming who, how much and what it buys; the dialog fits 360 px', async ({ page, request }) => {
    const api = await adminApi(request);
    const { subscribers } = await api<{ subscribers: { id: number; name: string }[] }>('/api/tips/subscribers/active?perPage=50');
    const subscriber = subscribers[0]!;
    const { packages } = await api<{ packages: { name: string; price: number }[] }>('/api/tips/prices/sms-tips');
    const d2 = packages.find((p) => p.name.startsWith('Daily 2 Odds'))!;
    const receipt = `SQ${Date.now().toString().slice(-8)}`;
    simulatePayment(['--amount', String(d2.price), '--account', 'D2', '--phone', '0799123457', '--msisdn-mode', 'masked', '--receipt', receipt]);

    await signIn(page, admin);
    await page.setViewportSize(PHONE);
    await page.goto(`/mpesa/unclaimed?search=${receipt}`);
    await page.getByTestId(`claim-${receipt}`).click();
    await expectDialogFits(page, 'claim');
    const modal = page.getByTestId('claim-modal');
    await modal.getByTestId('claim-search').fill(subscriber.name);
    await modal.getByTestId('claim-search').press('Enter');
    await modal.getByTestId('claim-candidate').filter({ hasText: 'Tips subscriber' }).filter({ hasText: subscriber.name }).first().getByRole('button', { name: /^Claim/ }).click();

    // Nothing is claimed by that click: the question names the payee, the amount and what it buys.
    const confirm = modal.getByTestId('claim-confirm');
    await expect(confirm).toContainText(subscriber.name);
    await expect(confirm).toContainText(d2.price.toLocaleString('en-KE', { minimumFractionDigits: 2 }));
    await expect(modal.getByTestId('claim-buys')).toContainText(`buy the tips package "${d2.name}"`);
    await expectDialogFits(page, 'claim confirmation');
    await shot(page, 'screens-claim-confirm');
    const still = await api<{ transactions: { status: string }[] }>(`/api/mpesa-transactions/search?search=${receipt}`);
    expect(still.transactions[0]!.status).toBe('unclaimed');

    await modal.getByRole('button', { name: 'Back' }).click();
    await expect(modal.getByTestId('claim-candidate').first()).toBeVisible();
    await modal.getByTestId('claim-candidate').filter({ hasText: 'Tips subscriber' }).filter({ hasText: subscriber.name }).first().getByRole('button', { name: /^Claim/ }).click();
    await modal.getByTestId('confirm-claim').click();
    await expect(page.getByText('Payment claimed successfully')).toBeVisible();
    const after = await api<{ transactions: { status: string }[] }>(`/api/mpesa-transactions/search?search=${receipt}`);
    expect(after.transactions[0]!.status).toBe('claimed');

    // Unclaim asks too, in a dialog that fits.
    await page.goto(`/mpesa?search=${receipt}`);
    await page.getByTestId(`unclaim-${receipt}`).click();
    await expectDialogFits(page, 'unclaim confirmation');
    await closeDialog(page);
  });

  test('every dialog of the main screens fits a 360 px phone, its buttons reachable and named', async ({ page, request }) => {
    const api = await adminApi(request);
    const { active_clients: clients } = await api<{ active_clients: { id: number; pending_bonus: number }[] }>(
      '/api/clients/active?perPage=500',
    );
    const client = clients.find((c) => c.pending_bonus > 0) ?? clients[0]!;
    await signIn(page, admin);
    await page.setViewportSize(PHONE);

    const dialogs: { path: string; open: (page: Page) => Promise<void>; what: string }[] = [
      { path: `/clients/${client.id}`, open: (p) => p.getByTestId('send-message').click(), what: 'send message' },
      { path: `/clients/${client.id}`, open: (p) => p.getByTestId('request-payment').click(), what: 'request payment' },
      { path: `/clients/${client.id}`, open: (p) => p.getByRole('button', { name: 'New Bet' }).click(), what: 'new bet' },
      { path: `/clients/${client.id}`, open: (p) => p.getByTestId('edit-client').click(), what: 'edit client' },
      { path: '/users', open: (p) => p.getByTestId('register-user').click(), what: 'register user' },
      { path: '/me', open: (p) => p.getByTestId('change-password').click(), what: 'change password' },
      {
        path: '/catalogue',
        open: async (p) => {
          await p.getByRole('tab', { name: /Bet4Me plans/ }).click();
          await p.getByTestId('add-plan').click();
        },
        what: 'add plan',
      },
      { path: '/tips/prices/sms-tips', open: (p) => p.getByTestId('add-package').click(), what: 'add package' },
      { path: '/sms', open: (p) => p.locator('[data-testid^="sms-view-"]').first().click(), what: 'SMS details' },
    ];
    if (client.pending_bonus > 0) {
      dialogs.push({ path: `/clients/${client.id}`, open: (p) => p.getByTestId('record-bonus-payment').click(), what: 'record bonus payment' });
    }
    for (const { path, open, what } of dialogs) {
      if (page.url() !== new URL(path, page.url()).href) await page.goto(path);
      await open(page);
      await expectDialogFits(page, what);
      await closeDialog(page);
    }
  });
});
