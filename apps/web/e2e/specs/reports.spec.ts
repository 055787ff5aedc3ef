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

  test('an admin reads the renewal rate and the cohort grid, as the API computes them, and splits them by first channel and by lever', async ({ page, request }) => {
    // The last twelve months, by month.
    const today = new Date().toISOString().slice(0, 10);
    const range = `from=${Number(today.slice(0, 4)) - 1}-${today.slice(5, 7)}-01&to=${today}`;
    await signIn(page, admin);
    await page.goto(`/reports?report=retention&group=month&${range}`);
    const login = await request.post('/api/auth/login', { data: admin });
    const headers = { authorization: `Bearer ${(await login.json()).token as string}` };

    // The renewal rate shown is the API's, with its formula beside it.
    const api = await (await request.get(`/api/reports/retention?${range}&group=month`, { headers })).json();
    const rate = api.renewal_rate === null ? '–' : `${(api.renewal_rate * 100).toFixed(1)}%`;
    await expect(page.getByTestId('retention-renewal-rate')).toContainText(rate);
    await expect(page.getByTestId('retention-renewal-rate')).toContainText('the share whose subscriber bought the same category and medium again');

    // The cohort grid has one row per cohort the API answers, the newest subscribers of each month.
    const cohorts = await (await request.get(`/api/reports/cohorts?${range}`, { headers })).json();
    expect(cohorts.cohorts.length).toBeGreaterThan(0);
    const grid = page.getByTestId('cohort-table');
    await expect(grid.getByTestId('table-row')).toHaveCount(cohorts.cohorts.length);
    await expect(grid.getByTestId('table-row').first()).toContainText(String(cohorts.cohorts[0].size));
    await shot(page, 'reports-retention');

    // Split by the channel of the first purchase: the grid and the recovery figures follow.
    await page.getByTestId('retention-split').getByText('First channel').click();
    const split = await (await request.get(`/api/reports/cohorts?${range}&group_by=channel`, { headers })).json();
    expect(split.groups.length).toBeGreaterThan(0);
    const first = grid.getByTestId('table-row').first();
    await expect(first).toContainText(split.groups[0].label);
    await expect(first).toContainText(String(split.groups[0].cohorts[0].size));
    await expect(page.getByTestId('recovery-groups')).toBeVisible();
    await shot(page, 'reports-retention-by-channel');

    // Split by lever: a row per lever the API answers, its own sales and discount beside its figures.
    await page.getByTestId('retention-split').getByText('Lever').click();
    const levers = await (await request.get(`/api/reports/retention?${range}&group=month&group_by=lever`, { headers })).json();
    expect(levers.groups.length).toBeGreaterThan(0);
    const byLever = page.getByTestId('retention-levers');
    await expect(byLever.getByTestId('table-row')).toHaveCount(levers.groups.length);
    await expect(byLever.getByTestId('table-row').first()).toContainText(levers.groups[0].label);
    await expect(byLever.getByTestId('table-row').first()).toContainText(String(levers.groups[0].lever_sales.sales));
    await shot(page, 'reports-retention-by-lever');
  });
});
