import { expect } from '@playwright/test';
import { shot, signIn, staff, testWithOwnServer } from '../support.ts';

// The sports-data feed of decision 070 as the demo runs it: the in-process fake API-Football with
// this week's fixtures and yesterday's D2 ticket on a match that finished 2-1.
const test = testWithOwnServer({ SEED_DEMO: '1', SPORTS_FEED_PROVIDER: 'api-football-fake' });

test('staff pick a fixture from the feed and publish it priced; the feed’s result is confirmed in one click', async ({ page }) => {
  test.setTimeout(120_000);
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
});
