import { expect, test, type Page } from '@playwright/test';
import { admin, signIn, staff } from '../support.ts';

const shot = (page: Page, name: string) =>
  process.env.E2E_SCREENSHOTS ? page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: true }) : null;

test.describe('Tips section', () => {
  test('staff write a post with a table, view it, edit it and trash it', async ({ page }) => {
    await signIn(page, staff);
    await page.goto('/tips/posts/add');
    await page.getByLabel('Title').fill('E2E derby: both teams to score');
    await page.getByLabel('Cover image').selectOption({ label: 'Stadium lights' });
    await page.getByLabel('Daily 2 Odds (D2)').check();
    await page.getByLabel('Over 1.5 Goals (O15)').check();

    // Without a category or a match date the server says what is missing under each field.
    await page.getByRole('button', { name: 'Save Post' }).click();
    await expect(page.getByText('Choose a category', { exact: true })).toBeVisible();
    await expect(page.getByTestId('form-error')).not.toContainText('post_category_id');
    await page.getByLabel('Category').selectOption({ label: 'Football' });
    // The content box becomes the rich-text editor when it is first clicked (decision 067).
    await page.getByTestId('post-content-plain').click();
    const editor = page.locator('[data-testid="post-content"] .ProseMirror');
    await editor.click();
    await editor.pressSequentially('Arsenal have scored in every home game.');
    await page.getByRole('button', { name: 'Save Post' }).click();
    await expect(page.getByText('The match date is required', { exact: true })).toBeVisible();

    await page.getByTestId('match-date').fill(`${new Date().toISOString().slice(0, 7)}-15`);

    await page.getByTestId('insert-table-control').click();
    const form = page.getByTestId('insert-table-form');
    await form.getByLabel('Rows').fill('1');
    await expect(form.getByText('At least 2')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Insert' })).toBeDisabled();
    await form.getByLabel('Rows').fill('2');
    await form.getByLabel('Columns').fill('2');
    await form.getByRole('button', { name: 'Insert' }).click();
    await page.keyboard.type('Market');
    await shot(page, 'post-add');
    await page.getByRole('button', { name: 'Save Post' }).click();

    await expect(page).toHaveURL(/\/tips\/posts\/view\/\d+$/);
    await expect(page.getByRole('heading', { name: 'E2E derby: both teams to score' })).toBeVisible();
    await expect(page.getByText('Daily 2 Odds (D2)')).toBeVisible();
    await expect(page.getByTestId('post-html').locator('table')).toBeVisible();
    await expect(page.getByTestId('post-html')).toContainText('Market');
    await shot(page, 'post-view');

    await page.getByRole('link', { name: 'Edit Post' }).click();
    await expect(page).toHaveURL(/\/tips\/posts\/edit\/\d+$/);
    await expect(page.getByLabel('Title')).toHaveValue('E2E derby: both teams to score');
    await page.getByLabel('Title').fill('E2E derby: over 1.5 goals');
    await page.getByRole('button', { name: 'Save Post' }).click();
    await expect(page).toHaveURL(/\/tips\/posts\/view\/\d+$/);
    await expect(page.getByRole('heading', { name: 'E2E derby: over 1.5 goals' })).toBeVisible();

    await page.getByRole('button', { name: 'Delete Post' }).click();
    await expect(page.getByText('Trash? Are you sure you want to do this!')).toBeVisible();
    await page.getByRole('button', { name: 'Yes, trash it!' }).click();
    await expect(page).toHaveURL(/\/tips\/posts\/all$/);
    await expect(page.getByTestId('posts-table')).toBeVisible();
    await expect(page.getByText('E2E derby: over 1.5 goals')).toHaveCount(0);
    await shot(page, 'posts-all');
  });

  test('staff add a subscriber and find them in the active list and their view', async ({ page }) => {
    await signIn(page, staff);
    await page.goto('/tips/subscribers/add');
    // Nothing chosen: each select says what to choose, and the banner names no internal field.
    await page.getByRole('button', { name: 'Save Subscriber' }).click();
    await expect(page.getByText('Choose a bet category', { exact: true })).toBeVisible();
    await expect(page.getByText('Choose a duration', { exact: true })).toBeVisible();
    await expect(page.getByText('Must be a number')).toHaveCount(0);
    await expect(page.getByTestId('form-error')).not.toContainText('_id');
    await page.getByLabel('Name').fill('Esther Wairimu');
    await page.getByLabel('Phone').fill('0799 111 222');
    await page.getByRole('textbox', { name: 'Bet category' }).click();
    await page.getByRole('option', { name: 'Daily 2 Odds (D2)' }).click();
    await page.getByRole('textbox', { name: 'Get Tips Via' }).click();
    await page.getByRole('option', { name: 'SMS' }).click();
    await page.getByRole('textbox', { name: 'Duration' }).click();
    await page.getByRole('option', { name: '1 Week' }).click();
    await shot(page, 'subscriber-add');
    await page.getByRole('button', { name: 'Save Subscriber' }).click();

    await expect(page).toHaveURL(/\/tips\/subscribers\/active$/);
    await page.getByRole('link', { name: 'Esther Wairimu' }).click();
    await expect(page).toHaveURL(/\/tips\/subscribers\/view\/\d+$/);
    await expect(page.getByText('0799111222')).toBeVisible();
    await expect(page.getByTestId('subscriber-subscriptions')).toContainText('Daily 2 Odds (D2) by SMS');

    await page.getByRole('button', { name: 'Send SMS' }).click();
    await page.getByLabel('Message').fill('Karibu! Your D2 tips start today.');
    await expect(page.getByTestId('sms-counter')).toHaveText('SMS pages: 1 | Characters: 33');
    await shot(page, 'subscriber-view');
    await page.getByTestId('send-sms-modal').getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('SMS sent successfully').first()).toBeVisible();

    await page.goto('/tips/subscribers/active');
    await expect(page.getByTestId('subscribers-table')).toContainText('0799111222');
    await page.goto('/tips/subscriptions/active');
    await expect(page.getByTestId('subscriptions-table')).toContainText('Active');
  });

  test('staff save SMS tips and see the delivery counts', async ({ page }) => {
    await signIn(page, staff);
    await page.goto('/tips/posts/update-sms-tips');
    const d2 = page.getByLabel('Daily 2 Odds (D2)');
    await d2.fill('D2 E2E: Gor Mahia win @1.85');
    await expect(page.getByText('SMS pages: 1 | Characters: 27')).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    // Saving sends SMS: it asks first (issue 14 item 2; the count is checked in daily-use.spec.ts).
    await page.getByTestId('sms-tips-send').click();
    await expect(page.getByTestId('sms-tips-progress')).toBeVisible();
    await page.getByTestId('sms-tips-progress').getByRole('link', { name: 'View SMS tips' }).click();
    await expect(page).toHaveURL(/\/tips\/posts\/view-sms-tips$/);
    const card = page.getByTestId('sms-tip-D2');
    await expect(card).toContainText('D2 E2E: Gor Mahia win @1.85');
    await expect(card.getByTestId('delivery-queued')).toBeVisible();
    await expect(card.getByTestId('delivery-delivered')).toBeVisible();
    await shot(page, 'sms-tips-view');
  });

  test('staff update the winnings page', async ({ page }) => {
    await signIn(page, staff);
    await page.goto('/tips/winnings');
    await expect(page.getByRole('heading', { name: 'Winnings & Results' })).toBeVisible();
    const editor = page.locator('[data-testid="winnings-editor"] .ProseMirror');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' E2E weekend: 7 of 8 won.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Winnings Updated successfully').first()).toBeVisible();
    await shot(page, 'winnings');
  });

  test('an admin edits a price and sees every subscription', async ({ page }) => {
    await signIn(page, admin);
    await page.goto('/tips/prices/sms-tips');
    const table = page.getByTestId('prices-table');
    await expect(table).toContainText('Daily 2 Odds SMS weekly');
    await table.getByRole('button', { name: 'Edit' }).first().click();
    const modal = page.getByTestId('price-modal');
    await modal.getByLabel('Price (KES)').fill('-5');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText(/positive amount/).first()).toBeVisible();
    await modal.getByLabel('Price (KES)').fill('650');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Price saved successfully').first()).toBeVisible();
    await expect(table).toContainText('KES 650.00');
    await shot(page, 'prices-sms');

    await page.goto('/tips/prices/web-tips');
    await expect(page.getByTestId('prices-table')).toContainText('Web weekly');
    await page.goto('/tips/subscriptions/all');
    await expect(page.getByTestId('subscriptions-table')).toContainText('Esther Wairimu');
    await shot(page, 'subscriptions-all');
    await page.goto('/tips/subscribers/all');
    await expect(page.getByTestId('subscribers-table')).toBeVisible();
  });
});
