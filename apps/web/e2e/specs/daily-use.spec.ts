import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { admin, signIn, staff } from '../support.ts';
import { menu } from '../../src/app/layout/menu.ts';

/** Issue 14 (daily use): SMS tips confirmation, keyboard reach of the menu, titles, return after sign-in. */
const shot = (page: Page, name: string) =>
  process.env.E2E_SCREENSHOTS ? page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: false }) : null;

async function tokenOf(request: APIRequestContext, who: { email: string; password: string }): Promise<string> {
  const res = await request.post('/api/auth/login', { data: who });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

test.describe('Daily use', () => {
  test('saving an SMS tip says how many SMS it sends, then shows them going out', async ({ page, request }) => {
    const token = await tokenOf(request, staff);
    const text = `D2 daily-use ${Date.now()}: Tusker FC win @2.10`;
    // The same question asked of the API independently: how many would this send?
    const current = await request.get('/api/tips/posts/update-sms-tips', { headers: { authorization: `Bearer ${token}` } });
    const posts = ((await current.json()) as { posts: { bet_category_id: number; code: string; content: string }[] }).posts;
    const d2 = posts.find((p) => p.code === 'D2')!;
    const estimate = await request.post('/api/tips/posts/update-sms-tips/estimate', {
      headers: { authorization: `Bearer ${token}` },
      data: { posts: [{ bet_category_id: d2.bet_category_id, content: text }] },
    });
    const expected = ((await estimate.json()) as { tips: { recipients: number; estimated_parts: number }[] }).tips[0]!;
    expect(expected.recipients).toBeGreaterThan(0);

    await signIn(page, staff);
    await page.goto('/tips/posts/update-sms-tips');
    await page.getByLabel('Daily 2 Odds (D2)').fill(text);
    await page.getByTestId('sms-tips-save').click();
    const line = page.getByTestId('sms-tips-confirm-D2');
    await expect(line).toContainText(`This sends ${expected.recipients.toLocaleString('en-KE')} SMS (${expected.estimated_parts} part`);
    await expect(line).toContainText('to Daily 2 Odds (D2) subscribers');
    await expect(line).toContainText('about KES');
    await shot(page, 'sms-tips-confirm');

    // Cancel sends nothing: the tip is unchanged on the server.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('sms-tips-confirm')).toBeHidden();
    const after = await request.get('/api/tips/posts/update-sms-tips', { headers: { authorization: `Bearer ${token}` } });
    const unchanged = ((await after.json()) as { posts: { code: string; content: string }[] }).posts.find((p) => p.code === 'D2')!;
    expect(unchanged.content).toBe(d2.content);

    await page.getByTestId('sms-tips-save').click();
    await page.getByTestId('sms-tips-send').click();
    const progress = page.getByTestId('sms-tips-progress-D2');
    await expect(progress).toContainText(`of ${expected.recipients.toLocaleString('en-KE')} handed to the gateway`);
    // Issue 53 item 5: the answer to "Send N SMS" is where the user is looking, not far above it.
    await expect(page.getByTestId('sms-tips-progress')).toBeInViewport();
    await shot(page, 'sms-tips-progress');
  });

  test('every menu entry is reached and opened with the keyboard alone', async ({ page }) => {
    await signIn(page, admin);
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByRole('link', { name: 'Update Winnings' })).toBeVisible();
    // Each group is a button that Tab reaches; Enter opens it; then each of its links is reachable by Tab.
    for (const section of menu) {
      for (const entry of section.entries) {
        const target = entry.links ? nav.getByRole('button', { name: entry.label, exact: true }) : nav.getByRole('link', { name: entry.label, exact: true });
        const all = await target.all();
        expect(all.length, entry.label).toBeGreaterThan(0);
        for (const item of all) {
          await item.focus();
          await expect(item).toBeFocused();
          if (entry.links && (await item.getAttribute('aria-expanded')) !== 'true') {
            await page.keyboard.press('Enter');
            await expect(item).toHaveAttribute('aria-expanded', 'true');
          }
        }
      }
    }
    // With every group open, Tab from the top of the menu visits every link of the menu.
    const links = new Set(menu.flatMap((s) => s.entries.flatMap((e) => (e.links ? e.links.map((l) => l.to) : [e.to!]))));
    await nav.getByRole('button').first().focus();
    const reached = new Set<string>();
    for (let i = 0; i < 80 && reached.size < links.size; i += 1) {
      await page.keyboard.press('Tab');
      const href = await page.evaluate(() => (document.activeElement as HTMLAnchorElement | null)?.getAttribute('href'));
      if (href) reached.add(href);
    }
    expect([...links].filter((to) => !reached.has(to))).toEqual([]);
    await shot(page, 'menu-keyboard');
  });

  test('each screen titles its tab, and "/" jumps to the list search', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Sign in · Betdesk');
    await signIn(page, admin);
    await expect(page).toHaveTitle('Dashboard · Betdesk');
    const screens: [string, string][] = [
      ['/bets/open', 'Open bets · Betdesk'],
      ['/mpesa', 'M-Pesa transactions · Betdesk'],
      ['/tips/posts/all', 'All posts · Betdesk'],
      ['/users', 'My users · Betdesk'],
      ['/me', 'My profile · Betdesk'],
    ];
    for (const [path, title] of screens) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
    await page.goto('/clients');
    await expect(page.getByTestId('table-search')).toBeVisible();
    // Pressed again until it lands: while the first page of clients arrives the list may draw its
    // search box anew, and a box drawn after the key was pressed is not the one it focused.
    await expect(async () => {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('/');
      await expect(page.getByTestId('table-search')).toBeFocused({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
  });

  test('a form in a modal opens with the cursor in its first field', async ({ page }) => {
    await signIn(page, admin);
    await page.goto('/users');
    await page.getByRole('button', { name: 'Register user' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('input').first()).toBeFocused();
  });

  test('after the session ends, signing in again returns to the page the user was on', async ({ page, request }) => {
    await signIn(page, staff);
    await page.goto('/clients/active');
    await expect(page.getByRole('heading').first()).toBeVisible();
    // The session ends on the server (as when it expires): the next request is a 401.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const out = await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}` } });
    expect(out.ok()).toBe(true);
    await page.goto('/clients/active?search=QX');
    await expect(page).toHaveURL(/\/login$/);
    // One "You need to log in first." for the failed requests, not one per request.
    await page.waitForTimeout(1000);
    expect(await page.getByText('You need to log in first.').count()).toBeLessThanOrEqual(1);
    await page.getByLabel('Email').fill(staff.email);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/clients\/active\?search=QX$/);
  });

  test('registering a user says the temporary password went by SMS, in a popup not over the form', async ({ page }) => {
    await signIn(page, admin);
    await page.goto('/users');
    await page.getByTestId('register-user').click();
    const stamp = String(Date.now()).slice(-6);
    await page.getByTestId('user-name').fill(`Daily Use ${stamp}`);
    await page.getByTestId('user-phone').fill(`0713${stamp}`);
    await page.getByTestId('user-email').fill(`daily-${stamp}@example.com`);
    await page.getByTestId('user-category').click();
    await page.getByRole('option', { name: 'Agent' }).click();
    await page.getByTestId('user-form-modal').getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page.getByTestId('success-popup-text')).toContainText(`A temporary password has been sent by SMS to 0713${stamp}`);
    await expect(page.getByTestId('user-name')).toBeHidden();
    await shot(page, 'register-popup');
  });
});
