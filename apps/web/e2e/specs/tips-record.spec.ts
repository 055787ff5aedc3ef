import { expect, test } from '@playwright/test';
import { nairobiDayOf } from '@betdesk/contract';
import { shot, signIn, staff } from '../support.ts';

/** An instant as the kick-off input takes it: Africa/Nairobi wall time with seconds. */
const nairobiLocal = (at: Date) => new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 19);

test.describe('Tips track record', () => {
  test('staff write a ticket, send its SMS, enter the result and see the record and chart change', async ({ page }) => {
    // One day of the business end to end: ticket, SMS, result, record, post.
    test.setTimeout(90_000);
    await signIn(page, staff);
    await page.goto('/tips/posts/update-sms-tips');
    const ticket = page.getByTestId('ticket-D2');
    await ticket.getByRole('button', { name: 'Add selection' }).click();
    const leg = page.getByTestId('ticket-D2-leg-0');
    await leg.getByLabel('Home').fill('Gor Mahia');
    await leg.getByLabel('Away').fill('AFC Leopards');
    await leg.getByLabel('Competition').fill('FKF Premier League');
    await leg.getByLabel('Market').fill('Over 1.5');
    await leg.getByLabel('Pick').fill('Over 1.5');
    await leg.getByLabel('Odds').fill('1.00');
    // The kick-off is seconds away, so that the result can be entered in this test without a wait of minutes.
    await leg.getByLabel('Kick-off').fill(nairobiLocal(new Date(Date.now() + 8_000)));
    await page.getByTestId('ticket-D2-save').click();
    await expect(leg.getByText('Odds must be above 1.00')).toBeVisible();
    // The refusal's toast sits bottom right, where the Save button lands once the page is long; a
    // pointer resting on a toast keeps it open, so it is closed as a user would before going on.
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Odds must be above 1.00' });
    await toast.getByRole('button', { name: 'Close' }).click();
    await expect(toast).toBeHidden();
    await leg.getByLabel('Odds').fill('1.85');
    await page.getByTestId('ticket-D2-save').click();

    const [, month, day] = nairobiDayOf(new Date()).split('-');
    const sms = page.getByLabel('Daily 2 Odds (D2)');
    await expect(sms).toHaveValue(`D2 ${day}/${month}: Gor Mahia-AFC Leopards Over1.5 @1.85`);
    await expect(page.getByTestId('ticket-D2-status')).toContainText('Published');
    // The generated text stays editable before it goes out.
    await sms.press('End');
    await sms.pressSequentially(' GL');
    await shot(page, 'ticket-sms');
    await page.getByTestId('sms-tips-save').click();
    await page.getByTestId('sms-tips-send').click();
    await expect(page.getByTestId('sms-tips-progress-D2')).toBeVisible();

    await page.goto('/tips/record');
    await page.getByTestId('record-category').selectOption({ label: 'Daily 2 Odds (D2)' });
    await expect(page.getByTestId('record-tickets')).toContainText('0 settled, 1 pending');
    await expect(page.getByTestId('profit-chart-last')).toHaveText('0.00');

    await page.goto('/tips/results');
    const result = page.getByRole('radiogroup', { name: 'Result of Gor Mahia - AFC Leopards' });
    // Listed once its kick-off has passed: reload until then.
    await expect(async () => {
      await page.reload();
      await expect(result).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await result.getByText('Won', { exact: true }).click();
    await shot(page, 'enter-results');
    await page.getByTestId('results-save').click();
    await expect(result).toBeHidden();
    await expect(page.getByTestId('awaiting-empty')).toBeVisible();

    await page.goto('/tips/record');
    await page.getByTestId('record-category').selectOption({ label: 'Daily 2 Odds (D2)' });
    await expect(page.getByTestId('record-tickets')).toContainText('1 settled, 0 pending');
    await expect(page.getByTestId('record-profit')).toContainText('+0.85 u');
    await expect(page.getByTestId('record-hit-rate')).toContainText('100.0 %');
    await expect(page.getByTestId('record-headline')).toContainText('Daily 2 Odds: 100.0 % of 1 decided tickets won, +0.85 units, ROI +85.0 % over 1 settled tickets');
    await expect(page.getByTestId('profit-chart-last')).toHaveText('+0.85');
    await expect(page.getByTestId('profit-line')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByTestId('record-export').click();
    expect((await download).suggestedFilename()).toBe('track-record.csv');
    await shot(page, 'track-record');

    // The record as a block of the Winnings & Results page: placed once, never retyped.
    await page.goto('/tips/winnings');
    const block = page.getByTestId('record-block-control');
    await block.getByRole('textbox', { name: 'Record of' }).click();
    await page.getByRole('option', { name: 'Daily 2 Odds (D2)' }).click();
    await block.getByRole('button', { name: 'Insert record block' }).click();
    await expect(page.locator('[data-testid="winnings-editor"] .ProseMirror')).toContainText('[[record:D2:this-month]]');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Winnings Updated successfully').first()).toBeVisible();

    // Readers see the figures computed from the result just entered, on the portal's home and its record page.
    await page.goto('/portal');
    const figures = page.locator('section.record').filter({ hasText: 'Daily 2 Odds (D2)' });
    await expect(figures).toContainText('This month');
    await expect(figures).toContainText('1 settled ticket');
    await expect(figures).toContainText('+0.85 units');
    await expect(page.locator('main')).not.toContainText('[[record:');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/portal/record');
    const d2 = page.locator('section.record').filter({ hasText: 'Daily 2 Odds (D2)' });
    await expect(d2).toContainText('All time · 1 settled ticket');
    await expect(d2.locator('dd').first()).toHaveText('100.0 %');
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'portal-record-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A web post of the day shows the ticket with its result.
    await page.goto('/tips/posts/add');
    await page.getByLabel('Title').fill('Derby day double');
    await page.getByLabel('Category').selectOption({ label: 'Football' });
    await page.getByLabel('Daily 2 Odds (D2)').check();
    await page.getByTestId('post-attach-ticket').check();
    await page.getByTestId('match-date').fill(nairobiDayOf(new Date()));
    // The content box becomes the rich-text editor when it is first clicked (decision 067).
    await page.getByTestId('post-content-plain').click();
    const editor = page.locator('[data-testid="post-content"] .ProseMirror');
    await editor.click();
    await editor.pressSequentially('Our ticket of the day.');
    await page.getByRole('button', { name: 'Save Post' }).click();
    await expect(page).toHaveURL(/\/tips\/posts\/view\/\d+$/);
    // Issue 53 item 5: publishing says so, in a toast on the screen the user lands on.
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Post published' })).toBeInViewport();
    const attached = page.getByTestId('post-tickets');
    await expect(attached).toContainText('Gor Mahia - AFC Leopards');
    await expect(attached).toContainText('Won');
    await shot(page, 'post-ticket');
  });
});
