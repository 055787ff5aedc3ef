import { expect, test, type Page } from '@playwright/test';
import { DATE_PRESETS, nairobiDayOf, presetRange } from '@betdesk/contract';
import { admin, signIn } from '../support.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '20 Nov 2026, 08:01' (a Nairobi time as the tables show it) → '2026-11-20'. */
function dayOfCell(text: string): string {
  const [day, month, year] = text.trim().split(/[\s,]+/);
  return `${year}-${String(MONTHS.indexOf(month!) + 1).padStart(2, '0')}-${day!.padStart(2, '0')}`;
}

/** 'KES 1,250.00' → 1250. */
function kes(text: string): number {
  return Number(text.replace(/[^0-9.-]/g, ''));
}

/** The text of one column over the rows on screen. */
async function columnTexts(page: Page, table: string, header: string): Promise<string[]> {
  const headers = await page.getByTestId(table).getByRole('columnheader').allInnerTexts();
  const index = headers.findIndex((h) => h.trim() === header);
  expect(index, `column ${header}`).toBeGreaterThanOrEqual(0);
  return page.getByTestId(table).getByTestId('table-row').locator(`td:nth-child(${index + 1})`).allInnerTexts();
}

test.describe('Tables', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test('sorts by a clickable header on the server, newest first by default, and keeps the order in the URL', async ({ page }) => {
    await page.goto('/mpesa');
    const table = page.getByTestId('mpesa-table');
    await expect(table.getByTestId('table-row').first()).toBeVisible();
    // Newest first by default.
    const sent = (await columnTexts(page, 'mpesa-table', 'Sent On')).map(dayOfCell);
    expect([...sent].sort().reverse()).toEqual(sent);
    await expect(table.getByRole('columnheader', { name: /Sent On/ })).toHaveAttribute('aria-sort', 'descending');
    // Only the list's sort fields are clickable.
    await expect(table.getByTestId('sort-amount')).toBeVisible();
    await expect(table.getByTestId('sort-sender_name')).toHaveCount(0);

    await table.getByTestId('sort-amount').click();
    await expect(page).toHaveURL(/sort=amount&dir=desc/);
    await expect(table.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'descending');
    await expect
      .poll(async () => {
        const amounts = (await columnTexts(page, 'mpesa-table', 'Amount')).map(kes);
        return amounts.every((a, i) => i === 0 || amounts[i - 1]! >= a);
      })
      .toBe(true);

    await table.getByTestId('sort-amount').click();
    await expect(page).toHaveURL(/sort=amount&dir=asc/);
    await expect
      .poll(async () => {
        const amounts = (await columnTexts(page, 'mpesa-table', 'Amount')).map(kes);
        return amounts.every((a, i) => i === 0 || amounts[i - 1]! <= a);
      })
      .toBe(true);

    // A bookmarked order opens as it was left.
    await page.reload();
    await expect(page.getByTestId('mpesa-table').getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  test('"Last 7 days" on /mpesa narrows the rows, the totals and the export, and stays in the URL', async ({ page }) => {
    await page.goto('/mpesa');
    const table = page.getByTestId('mpesa-table');
    await expect(table.getByTestId('table-row').first()).toBeVisible();
    const allTimeDeposit = kes(await page.getByTestId('total-deposit').innerText());
    const allTimeCount = await page.getByTestId('table-total').innerText();

    await page.getByTestId('date-preset').selectOption({ label: 'Last 7 days' });
    const to = nairobiDayOf(new Date());
    const from = nairobiDayOf(new Date(Date.now() - 6 * 24 * 60 * 60 * 1000));
    await expect(page).toHaveURL(new RegExp(`from=${from}&to=${to}`));
    // The choice stays shown, also on a Sunday, when "This week" is the same seven days.
    await expect(page.getByTestId('date-preset')).toHaveValue('last-7-days');
    await expect(page.getByTestId('date-from')).toHaveValue(from);
    await expect(page.getByTestId('date-to')).toHaveValue(to);
    await expect(page.getByTestId('table-total')).not.toHaveText(allTimeCount);

    // Rows: every one on screen falls in the range.
    const days = (await columnTexts(page, 'mpesa-table', 'Sent On')).map(dayOfCell);
    expect(days.length).toBeGreaterThan(0);
    for (const day of days) {
      expect(day >= from && day <= to, `${day} in ${from}..${to}`).toBe(true);
    }
    // Totals: of the same range, so less than all time (the demo has payments of 30 days).
    const weekDeposit = kes(await page.getByTestId('total-deposit').innerText());
    expect(weekDeposit).toBeLessThan(allTimeDeposit);
    await expect(page.getByTestId('date-range-note')).toBeVisible();

    // Export: the same range goes to the CSV.
    const exportRequest = page.waitForRequest((r) => r.url().includes('/export'));
    await table.getByTestId('table-export').click();
    const url = new URL((await exportRequest).url());
    expect(url.searchParams.get('from')).toBe(from);
    expect(url.searchParams.get('to')).toBe(to);

    // Bookmarkable: the URL alone brings the same view back.
    // The URL keeps the dates, not the preset's name: opened from it, the select shows the first preset
    // of these days ("Last 7 days", or "This week" on a Sunday).
    await page.goto(`/mpesa?from=${from}&to=${to}`);
    const sameDays = DATE_PRESETS.filter((p) => presetRange(p).from === from && presetRange(p).to === to);
    expect(sameDays).toContain('last-7-days');
    await expect(page.getByTestId('date-preset')).toHaveValue(sameDays[0]!);
    await expect(page.getByTestId('date-from')).toHaveValue(from);
    await expect.poll(async () => kes(await page.getByTestId('total-deposit').innerText())).toBe(weekDeposit);
  });

  test('on a 375 px phone each row is a card with its actions in reach, and Logout is not clipped', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 760 });
    for (const path of ['/bets/open', '/mpesa/unclaimed', '/clients/active']) {
      await page.goto(path);
      const card = page.getByTestId('table-card').first();
      await expect(card).toBeVisible();
      await expect(page.locator('[data-layout="cards"]')).toHaveCount(1);
      await expect(page.getByRole('table')).toHaveCount(0);
      // The card's action button is on screen, not in a sideways scroller.
      const action = card.getByRole('button').first();
      const box = (await action.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      // No sideways scrolling anywhere on the page.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      const logout = (await page.getByTestId('logout').boundingBox())!;
      expect(logout.x + logout.width, 'Logout fits the screen').toBeLessThanOrEqual(375);
    }
    await expect(page.getByTestId('table-card').first()).toContainText('Phone');
    if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/cards-375.png` });
  });

  test('at 1366 px the dashboard\'s Recent payments shows every spec column, Amount included, without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto('/dashboard');
    const table = page.getByTestId('recent-payments-table');
    await expect(table.getByTestId('table-row').first()).toBeVisible();
    // Alerts above it (a breach clock, a backup warning) may push it down: what counts is sideways.
    await table.scrollIntoViewIfNeeded();
    for (const header of ['Subscriber', 'Phone', 'Ref', 'Time', 'Amount']) {
      await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeInViewport();
    }
    const scroller = table.getByTestId('table-scroller');
    const sideways = await scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    await expect(table.getByTestId('table-row').first()).toContainText('KES');
    // The top 10 active clients, and the way to all of them.
    await expect(page.getByTestId('dashboard-active-clients').getByTestId('table-row')).toHaveCount(10);
    await page.getByTestId('all-active-clients').click();
    await expect(page).toHaveURL(/\/clients\/active$/);
    await expect(page.getByTestId('table-total')).toContainText('1–50 of');
  });
});
