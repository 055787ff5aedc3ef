import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { admin, shot, signIn, simulatePayment } from '../support.ts';

/** 'KES 1,250.00' -> 125000 cents. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);

test.describe('Reports', () => {
  test('an admin reads income by week, its total agrees with the rows and the API, and downloads it as CSV', async ({ page, request }) => {
    // A payment of today, so the current week has income whatever the demo data holds.
    const receipt = `SRP${Date.now().toString().slice(-7)}`;
    simulatePayment(['--amount', '321.45', '--account', 'REPORT1', '--msisdn-mode', 'masked', '--name', 'Rita Report', '--receipt', receipt]);

    await signIn(page, admin);
    await page.getByRole('link', { name: 'Reports' }).click();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(page.getByTestId('report-income')).toBeVisible();

    await page.getByRole('button', { name: 'Last 12 weeks' }).click();
    await expect(page).toHaveURL(/group=week/);
    const url = new URL(page.url());
    const from = url.searchParams.get('from')!;
    const to = url.searchParams.get('to')!;
    await expect(page.getByTestId('report-income')).toHaveAttribute('data-loading', 'false');

    const table = page.getByTestId('income-table');
    const rows = table.getByTestId('table-row');
    await expect(rows).toHaveCount(12);
    await expect(rows.first()).toContainText('Week of');
    expect(await page.getByTestId('chart-bar').count()).toBe(12);

    // The screen's total is the sum of its weekly rows, and what the API answers for the range.
    const totals = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[4]?.textContent ?? ''));
    const shownTotal = cents((await page.getByTestId('income-total').innerText()).split('\n').pop()!);
    expect(totals.reduce((sum, text) => sum + cents(text), 0)).toBe(shownTotal);
    expect(shownTotal).toBeGreaterThanOrEqual(32_145);
    const login = await request.post('/api/auth/login', { data: admin });
    const headers = { authorization: `Bearer ${(await login.json()).token as string}` };
    const api = await (await request.get(`/api/reports/income?from=${from}&to=${to}&group=week`, { headers })).json();
    expect(Math.round(api.total.total * 100)).toBe(shownTotal);
    // Weeks start on Monday.
    for (const row of api.rows as { period: string }[]) expect(new Date(`${row.period}T00:00:00Z`).getUTCDay()).toBe(1);

    await shot(page, 'reports-income-week');

    const downloading = page.waitForEvent('download');
    await table.getByTestId('table-export').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`report-income-${from}-to-${to}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('Period,From,To,Tips (KES),Bet4Me (KES),Unclaimed (KES),Total (KES),Payments,Refunded (KES),Net (KES)');
    expect(csv).toHaveLength(1 + 12);
    const csvTotal = csv.slice(1).reduce((sum, line) => sum + cents(line.split(',')[6]!), 0);
    expect(csvTotal).toBe(shownTotal);

    // The other reports open from their tabs, each with a chart and a table.
    await page.getByTestId('report-tab-sales').click();
    await expect(page).toHaveURL(/report=sales/);
    await expect(page.getByTestId('sales-table')).toBeVisible();
    await page.getByTestId('report-tab-subscribers').click();
    await expect(page.getByTestId('subscribers-table')).toBeVisible();
    await page.getByTestId('report-tab-staff').click();
    await expect(page.getByTestId('staff-table')).toBeVisible();
    await shot(page, 'reports-staff');
  });
});
