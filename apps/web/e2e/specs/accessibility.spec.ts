import { createRequire } from 'node:module';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { admin, anAgent, signIn, testWithOwnServer } from '../support.ts';

/**
 * Issue 27, item 16, and issue 53, item 10: axe-core finds no moderate, serious or critical violation
 * on any spec screen (staff) or portal page (punters), at 1366 and 375 px (a main landmark on every
 * page, headings that never skip a level, landmarks of distinct names). Besides those impacts, two rules the issue named are
 * held to as well although axe rates them lower: every page has a top-level heading
 * (page-has-heading-one) and no table has an empty column header (empty-table-header).
 */
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const NAMED_RULES = new Set(['page-has-heading-one', 'empty-table-header']);
const WIDTHS = [1366, 375];

// axe-core is injected as a script tag, which the app's Content-Security-Policy rightly refuses.
base.use({ bypassCSP: true });

/** The violations that fail the test, one line each with a few of the offending elements. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
  const results = await page.evaluate(() => (window as unknown as { axe: { run: () => Promise<AxeResults> } }).axe.run());
  return results.violations
    .filter((v) => v.impact === 'moderate' || v.impact === 'serious' || v.impact === 'critical' || NAMED_RULES.has(v.id))
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes.slice(0, 4).map(describeNode).join(' | ')}`);
}

/** An offending element, with the colours axe measured when contrast is the matter. */
function describeNode(node: AxeResults['violations'][number]['nodes'][number]): string {
  const colours = node.any.find((check) => check.id === 'color-contrast')?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
  const target = node.target.join(' ').slice(-90);
  return colours?.fgColor ? `${target} [${colours.fgColor} on ${colours.bgColor}: ${colours.contrastRatio}]` : target;
}

/** Every width of `path`, once it shows `ready`; the findings are collected, not thrown, so one run names them all. */
async function audit(page: Page, path: string, ready: (page: Page) => Promise<void>, found: string[]) {
  await page.setViewportSize({ width: WIDTHS[0]!, height: 800 });
  await page.goto(path);
  for (const width of WIDTHS) {
    // The same page redrawn at the next width (a phone's cards instead of tables): no second load.
    await page.setViewportSize({ width, height: 800 });
    // A screen that never gets ready (a timeout, the route's error page) is named, not just timed out.
    await ready(page).catch((error: unknown) => {
      throw new Error(`${path} @${width} never got ready: ${error instanceof Error ? error.message : String(error)}`);
    });
    for (const line of await violations(page)) {
      found.push(`${path} @${width}: ${line}`);
      console.log(found.at(-1)); // printed as found, so a run cut short still names what it saw
    }
  }
}

/** A staff screen is ready when its content is there and nothing is loading. */
async function staffScreenReady(page: Page) {
  await expect(page.locator('main h1, main h2').first()).toBeAttached();
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
}

async function adminGet(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: admin });
  const token = ((await login.json()) as { token: string }).token;
  return async <T>(path: string): Promise<T> => {
    const res = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
    expect(res.ok(), path).toBe(true);
    return (await res.json()) as T;
  };
}

base('every staff screen has no serious or critical axe-core violation, at 1366 and 375 px', async ({ page, request }) => {
  base.setTimeout(600_000);
  const get = await adminGet(request);
  const clients = await get<{ clients: { id: number }[] }>('/api/clients?per_page=1');
  const posts = await get<{ posts: { id: number }[] }>('/api/tips/posts/all');
  const subscribers = await get<{ subscribers: { id: number }[] }>('/api/tips/subscribers/active?per_page=1');
  const users = await get<{ users: { id: number }[] }>('/api/users');
  const clientId = clients.clients[0]!.id;
  const agent = await anAgent(request);
  const screens = [
    '/dashboard', '/me', '/users', '/users/assign-clients', `/users/${users.users[0]!.id}/clients`,
    '/clients/active', '/clients', `/clients/${clientId}`, `/clients/${clientId}/subscriptions`, `/clients/${clientId}/bets`,
    `/clients/${clientId}/bonuses`, `/clients/${clientId}/paid-bonuses`,
    '/bets/open', '/bets/closed', '/bonuses', '/bonuses/paid', '/bonuses/unpaid', '/subscriptions', '/subscriptions/all',
    '/mpesa', '/mpesa/unclaimed', '/mpesa/reconciliation', '/refunds', '/tips/mpesa/all',
    '/tips/posts/add', '/tips/posts/all', `/tips/posts/view/${posts.posts[0]!.id}`, `/tips/posts/edit/${posts.posts[0]!.id}`,
    '/tips/posts/update-sms-tips', '/tips/posts/view-sms-tips', '/tips/winnings', '/tips/results', '/tips/record',
    '/tips/subscribers/add', '/tips/subscribers/active', '/tips/subscribers/all', `/tips/subscribers/view/${subscribers.subscribers[0]!.id}`,
    '/tips/subscriptions/active', '/tips/subscriptions/all', '/tips/prices/web-tips', '/tips/prices/sms-tips',
    '/sms', '/sms/costs', '/sms/inbox', '/sms/broadcasts', '/settings', '/backups', '/audit', '/privacy', '/exclusions', '/reports', '/reports?report=promotions', '/reports?report=promo-codes', '/reports?report=safer-gambling', '/reports?report=money-bridge', '/tax', '/catalogue', '/promo-codes',
    '/agents', `/agents?agent=${agent.id}`,
  ];
  const found: string[] = [];
  await page.goto('/login');
  await audit(page, '/login', async (p) => { await expect(p.getByRole('button', { name: 'Sign In' })).toBeVisible(); }, found);
  await signIn(page, admin);
  for (const path of screens) await audit(page, path, staffScreenReady, found);
  expect(found).toEqual([]);
});

const portal = testWithOwnServer();

portal('every portal page has no serious or critical axe-core violation, at 1366 and 375 px', async ({ page, request, gateway }) => {
  portal.setTimeout(180_000);
  const login = await request.post('/api/auth/login', { data: admin });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const post = async (path: string, data: unknown) => {
    const res = await request.post(path, { headers, data });
    expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  };
  await post('/api/catalogue/bet-categories/store', { name: 'Daily 2 Odds', code: 'D2' });
  await post('/api/catalogue/post-categories/store', { name: 'Free tips', public: true });
  const catalogue = (await (await request.get('/api/catalogue', { headers })).json()) as {
    bet_categories: { id: number }[];
    post_categories: { id: number }[];
  };
  await post('/api/tips/prices/store', { bet_category_id: catalogue.bet_categories[0]!.id, medium: 'web', name: 'D2 web weekly', duration: 7, price: 150 });
  // The punter who signs in below holds a weekly subscription: My account offers its pause (decision 090).
  await post('/api/tips/subscribers/store', { name: 'Achieng Pause', phone: '0712345678', bet_category_id: catalogue.bet_categories[0]!.id, transmission_medium_id: 'web', duration: 7 });
  const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10); // Africa/Nairobi
  await post('/api/tips/posts/add', {
    title: 'Free pick of the day',
    post_category_id: catalogue.post_categories[0]!.id,
    match_date: today,
    selected_bets: [catalogue.bet_categories[0]!.id],
    content: '<p>Gor Mahia or draw</p>',
  });

  // A ticket that kicks off in a few seconds and gets its result: the record lists it with its chart.
  const stored = await request.post('/api/tips/tickets/store', {
    headers,
    data: {
      bet_category_id: catalogue.bet_categories[0]!.id,
      match_date: today,
      selections: [{ home: 'Gor Mahia', away: 'AFC Leopards', competition: 'FKF Premier League', kickoff: new Date(Date.now() + 3_000).toISOString(), market: '1X2', pick: '1', odds: 1.9 }],
    },
  });
  expect(stored.ok(), await stored.text()).toBe(true);
  const legId = ((await stored.json()) as { ticket: { selections: { id: number }[] } }).ticket.selections[0]!.id;
  await expect(async () => {
    const res = await request.post('/api/tips/tickets/results', { headers, data: { results: [{ selection_id: legId, result: 'won' }] } });
    expect(res.ok(), await res.text()).toBe(true);
  }).toPass({ timeout: 15_000 });

  const found: string[] = [];
  const shown = async (p: Page) => { await expect(p.locator('h1')).toBeVisible(); };
  const pages = ['/portal', '/portal/record', '/portal/record?category=D2', '/portal/packages', '/portal/help', '/portal/sign-in', '/portal/terms', '/portal/refunds', '/portal/privacy'];
  for (const path of pages) await audit(page, path, shown, found);
  // The record page was audited with its ticket and chart on it.
  await page.goto('/portal/record?category=D2');
  await expect(page.locator('[data-ticket]')).toHaveCount(1);
  await expect(page.locator('svg.chart')).toBeVisible();
  // The same pages in Kiswahili (issue 31): the switch is a form on every page.
  await page.goto('/portal');
  await page.getByRole('button', { name: 'Soma kwa Kiswahili' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sw');
  for (const path of ['/portal', '/portal/record?category=D2', '/portal/privacy']) await audit(page, path, shown, found);
  await page.getByRole('button', { name: 'Read in English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.goto('/portal/packages');
  const packagePath = new URL(await page.getByRole('link', { name: 'Pay with M-Pesa' }).first().evaluate((a) => (a as HTMLAnchorElement).href)).pathname;
  await audit(page, packagePath, shown, found);

  // Signing in: the code page, then the pages only a signed-in punter sees.
  await page.goto('/portal/sign-in');
  await page.getByLabel('Phone number').fill('0712 345 678');
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await expect(page.getByText('a 6-digit code is on its way')).toBeVisible();
  for (const line of await violations(page)) found.push(`code page: ${line}`);
  let code = '';
  await expect
    .poll(() => {
      code = gateway.accepted.find((m) => /sign-in code/.test(m.message))?.message.match(/\b(\d{6})\b/)?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await page.getByLabel(/6-digit code/).fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/sign-in|verify/);
  await page.goto('/portal');
  const postPath = new URL(await page.locator('a[href^="/portal/posts/"]').first().evaluate((a) => (a as HTMLAnchorElement).href)).pathname;
  // The package page signed in shows the 18+ declaration's tick (decision 060).
  for (const path of ['/portal/tips', '/portal/account', '/portal/sms', postPath, packagePath]) await audit(page, path, shown, found);
  // My account with its pause form (audited above), then the page the form answers: the new end and the days without tips.
  await page.goto('/portal/account');
  await page.getByLabel(/Pause my tips for how many days/).fill('2');
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByTestId('account-notice')).toContainText('Paused for 2 days');
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const line of await violations(page)) found.push(`paused account page @${width}: ${line}`);
  }
  expect(found).toEqual([]);
});
