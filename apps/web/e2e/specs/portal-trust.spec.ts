import { expect, test, type APIRequestContext } from '@playwright/test';
import { nairobiDayOf } from '@betdesk/contract';
import { admin, shot, signIn } from '../support.ts';

/**
 * Issue 31: a punter on a 360 px phone reads the portal in Kiswahili, finds its trust pages, and
 * sees the public record list a settled ticket, tip by tip, and not a pending one.
 */
test.use({ viewport: { width: 360, height: 740 } });

async function adminPost(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: admin });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  return async <T>(path: string, data: unknown): Promise<T> => {
    const res = await request.post(path, { headers, data });
    expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
}

test('a punter reads the portal in Kiswahili at 360 px, opens the trust pages and the record tip by tip', async ({ page, request }) => {
  test.setTimeout(60_000);
  const post = await adminPost(request);
  // A category of its own, so no other spec's ticket of the day is in the way.
  await post('/api/catalogue/bet-categories/store', { name: 'Trust Picks', code: 'T31' });
  const login = await request.post('/api/auth/login', { data: admin });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const categories = ((await (await request.get('/api/catalogue', { headers })).json()) as { bet_categories: { id: number; code: string }[] }).bet_categories;
  const t31 = categories.find((c) => c.code === 'T31')!.id;

  // A ticket that kicks off in a few seconds (then gets its result), and one that plays tomorrow.
  const soon = new Date(Date.now() + 4_000).toISOString();
  const played = await post<{ ticket: { selections: { id: number }[] } }>('/api/tips/tickets/store', {
    bet_category_id: t31,
    match_date: nairobiDayOf(new Date()),
    selections: [{ home: 'Gor Mahia', away: 'AFC Leopards', competition: 'FKF Premier League', kickoff: soon, market: 'Over 1.5', pick: 'Over 1.5', odds: 1.85 }],
  });
  const tomorrow = new Date(Date.now() + 86_400_000);
  await post('/api/tips/tickets/store', {
    bet_category_id: t31,
    match_date: nairobiDayOf(tomorrow),
    selections: [{ home: 'Tusker', away: 'Bandari', competition: 'FKF Premier League', kickoff: tomorrow.toISOString(), market: '1X2', pick: '1', odds: 2.1 }],
  });
  await expect(async () => {
    const res = await request.post('/api/tips/tickets/results', { headers, data: { results: [{ selection_id: played.ticket.selections[0]!.id, result: 'won' }] } });
    expect(res.ok(), await res.text()).toBe(true);
  }).toPass({ timeout: 15_000 });

  // The switch is a plain form on every page: Kiswahili, remembered on the next pages.
  await page.goto('/portal');
  await page.getByRole('button', { name: 'Soma kwa Kiswahili' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sw');
  await expect(page.getByRole('heading', { name: 'Jinsi ya kulipa' })).toBeVisible();
  await expect(page.getByText('Kubeti ni uraibu. Cheza kwa uwajibikaji. Miaka 18+ pekee')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Watu wazima pekee, miaka 18 na zaidi' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Body text is at least 16 px and the header's links are at least 44 px high on the phone.
  expect(await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('main p')!).fontSize))).toBeGreaterThanOrEqual(16);
  const heights = await page.locator('header nav a').evaluateAll((links) => links.map((a) => a.getBoundingClientRect().height));
  expect(Math.min(...heights)).toBeGreaterThanOrEqual(44);
  await shot(page, 'portal-home-sw');
  await page.setViewportSize({ width: 360, height: 740 });

  // The trust pages, from every page's foot.
  const footer = page.getByRole('navigation', { name: 'Kutuhusu' });
  await footer.getByRole('link', { name: 'Taarifa ya faragha' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Taarifa ya faragha' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Haki zako' })).toBeVisible();
  await shot(page, 'portal-privacy-sw');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole('navigation', { name: 'Kutuhusu' }).getByRole('link', { name: 'Masharti' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Masharti' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Kutuhusu' }).getByRole('link', { name: 'Sera ya kurejesha pesa' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sera ya kurejesha pesa' })).toBeVisible();

  // The record, tip by tip: the settled ticket is listed, the pending one is not.
  await page.getByRole('navigation', { name: 'Tovuti' }).getByRole('link', { name: 'Rekodi' }).click();
  await page.getByRole('link', { name: 'Trust Picks (T31)' }).click();
  const ticket = page.locator('[data-ticket]').first();
  await expect(ticket).toContainText('Gor Mahia - AFC Leopards');
  await expect(ticket).toContainText('Odds za jumla 1.85: Imeshinda, uniti +0.85');
  await expect(page.getByText('Tusker')).toHaveCount(0);
  await expect(page.locator('[data-coverage]')).toContainText('tiketi 1 zilizokamilika, 1 zinasubiri');
  await expect(page.getByRole('img', { name: /Faida ya jumla kwa uniti/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await shot(page, 'portal-record-sw');
  await page.setViewportSize({ width: 360, height: 740 });

  // And back to English with the same switch.
  await page.getByRole('button', { name: 'Read in English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: 'Trust Picks (T31): Tickets, newest first' })).toBeVisible();

  // An admin sets the licence line in Settings (the Portal group): every page shows it at its foot.
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, admin);
  await page.goto('/settings');
  await page.getByTestId('portal-settings-table').getByTestId('edit-setting-portal_licence_line').click();
  const modal = page.getByRole('dialog', { name: 'Portal licence line' });
  await modal.getByTestId('setting-input').fill('Licensed by BCLB, licence No. 0000123');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByTestId('form-success')).toHaveText('Setting saved successfully');
  await page.goto('/portal/help');
  await expect(page.getByText('Licensed by BCLB, licence No. 0000123')).toBeVisible();
  // Emptied, the line is gone again.
  await page.goto('/settings');
  await page.getByTestId('portal-settings-table').getByTestId('edit-setting-portal_licence_line').click();
  await page.getByRole('dialog', { name: 'Portal licence line' }).getByTestId('setting-input').fill('');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog').getByTestId('form-success')).toHaveText('Setting saved successfully');
  await page.goto('/portal/help');
  await expect(page.locator('[data-licence]')).toHaveCount(0);
});
