import { expect } from '@playwright/test';
import { shot, signIn, staff, testWithOwnServer } from '../support.ts';

// The sports-data feed of decision 070 as the demo runs it: the in-process fake API-Football with
// this week's fixtures and yesterday's D2 ticket on a match that finished 2-1.
const test = testWithOwnServer({ SEED_DEMO: '1', SPORTS_FEED_PROVIDER: 'api-football-fake' });

test('staff pick a fixture from the feed and publish it priced; the feed’s result is confirmed in one click; a punter reads the proof on a phone', async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  await signIn(page, staff);
  await page.goto('/tips/posts/update-sms-tips');
  const ticket = page.getByTestId('ticket-O15');
  await ticket.getByRole('button', { name: 'Add selection' }).click();
  const leg = page.getByTestId('ticket-O15-leg-0');
  const picker = leg.getByLabel('Fixture from the feed');
  // The fixtures come from the local copy the boot's sync filled.
  await expect(async () => {
    await picker.click();
    await picker.fill('Liverpool');
    await expect(page.getByRole('option', { name: /Liverpool – Everton/ })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole('option', { name: /Liverpool – Everton/ }).click();
  await expect(leg.getByLabel('Home')).toHaveValue('Liverpool');
  await expect(leg.getByLabel('Competition')).toHaveValue('Premier League (England)');
  await leg.getByLabel('Market').fill('1X2');
  await leg.getByLabel('Pick').fill('1');
  await shot(page, 'feed-fixture-picker');
  await page.getByTestId('ticket-O15-save').click();
  await expect(page.getByTestId('ticket-O15-status')).toContainText('Published');
  await expect(page.getByTestId('ticket-O15-leg-0-verified')).toHaveText(/^verified @\d\.\d\d$/);
  await expect(page.getByLabel('Over 1.5 Goals (O15)')).toHaveValue(/Liverpool-Everton 1 @\d\.\d\d/);

  await page.goto('/tips/results');
  const proposal = page.getByText(/Feed: Won \(90-minute score 2-1\)/);
  await expect(async () => {
    await page.reload();
    await expect(proposal).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await shot(page, 'feed-proposed-result');
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(proposal).toBeHidden();
  await expect(page.getByTestId('awaiting-empty')).toBeVisible();

  // A punter on a 360 px phone, not signed in, reads the settled ticket's proof on the public record.
  const phone = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
  const punter = await phone.newPage();
  await punter.goto('/portal/record');
  const card = punter.locator('article[data-ticket]', { hasText: 'Newcastle - Brighton' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Premier League (England)');
  await expect(card).toContainText('Pick: 1X2: 1 · Odds 1.95');
  await expect(card.locator('[data-odds-source]')).toHaveText(/^\(odds from the feed's median of bookmakers, taken .+\)$/);
  // Taken at 1.95, closing 1.80: CLV = 1.95 ÷ 1.80 − 1 = +8.3 %.
  await expect(card).toContainText('closing odds 1.80, CLV +8.3 %');
  await expect(card.locator('[data-result-source="feed"]')).toHaveText('(result from the feed)');
  await expect(card).toContainText('Won');
  // The chain head: staff's publication above is its last link.
  const head = punter.locator('[data-chain-head]');
  await expect(head).toContainText(/Chain head: [0-9a-f]{64}\./);
  await expect(punter.locator('[data-average-clv]').first()).toBeVisible();
  // Nothing wider than the phone: the 64-character hash wraps.
  expect(await punter.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (process.env.E2E_SCREENSHOTS) {
    await card.scrollIntoViewIfNeeded();
    await punter.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/portal-record-proof-360.png`, fullPage: true });
  }
  await phone.close();
});
