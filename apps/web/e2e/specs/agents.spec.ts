import { expect, test } from '@playwright/test';
import { admin, freshAgentPhone, shot, signIn } from '../support.ts';

/**
 * Agents (decisions 088 and 094): an admin opens Agents from the menu, registers an agent (the
 * server's refusal of a phone already an agent's shows under the phone), finds the agent in the
 * list with their referral code and this month's commission, and opens their statement of a month;
 * asking this month's payouts is refused under the month (it has not ended), a closed month's says
 * what it asked (decision 093; the two-admin approval and B2C are pinned in agent-payouts.test.ts).
 */
test('an admin registers an agent, sees them in the list and opens their statement', async ({ page }) => {
  const phone = freshAgentPhone();
  const name = `Njeri Radio ${phone.slice(-4)}`;
  await signIn(page, admin);
  await page.getByRole('link', { name: 'Agents', exact: true }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();

  await page.getByTestId('new-agent').click();
  const modal = page.getByTestId('agent-modal');
  await modal.getByTestId('agent-name').fill(name);
  await modal.getByTestId('agent-phone').fill(phone);
  await modal.getByRole('button', { name: 'Register' }).click();
  await expect(modal.getByText('Agent registered')).toBeVisible();
  await expect(modal).toBeHidden();

  const row = page.getByTestId('agents-table').getByTestId('table-row').filter({ hasText: name });
  await expect(row).toContainText(phone);
  // Name, phone, then the six-digit referral code.
  await expect(row.locator('td').nth(2)).toHaveText(/^\d{6}$/);
  await expect(row).toContainText('KES 0.00');

  // The same phone again: the server's 422 lands under the phone field.
  await page.getByTestId('new-agent').click();
  await modal.getByTestId('agent-name').fill('Someone Else');
  await modal.getByTestId('agent-phone').fill(phone);
  await modal.getByRole('button', { name: 'Register' }).click();
  await expect(modal.getByText('An agent with this phone is already registered').first()).toBeVisible();
  await expect(modal.getByTestId('agent-phone')).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // Their statement of this month, then of another month: no line yet, a total of nothing.
  await row.getByRole('button', { name: `Statement of ${name}` }).click();
  const statement = page.getByTestId('agent-statement');
  await expect(statement.getByRole('heading', { name: `Statement: ${name}` })).toBeVisible();
  const month = await statement.getByTestId('agent-statement-month').inputValue();
  expect(month).toMatch(/^\d{4}-\d{2}$/);
  await expect(page).toHaveURL(new RegExp(`agent=\\d+&month=${month}`));
  await expect(statement.getByTestId('agent-statement-total')).toContainText('KES 0.00');
  await expect(statement.getByText('No commission in this month')).toBeVisible();
  await statement.getByTestId('agent-statement-month').fill('2026-01');
  await expect(page).toHaveURL(/month=2026-01/);
  await expect(statement.getByTestId('agent-statement-total')).toContainText('KES 0.00');

  // Payouts: this month has not ended, so it is refused under the month field; a closed month
  // without any commission line asks nothing and says so.
  const payouts = page.getByTestId('agent-payouts');
  await payouts.getByTestId('payout-month').fill(month);
  await payouts.getByRole('button', { name: 'Ask for payouts' }).click();
  await expect(payouts.getByText('Choose a month that has ended (Nairobi time)')).toBeVisible();
  await expect(payouts.getByTestId('payout-month')).toHaveAttribute('aria-invalid', 'true');
  await payouts.getByTestId('payout-month').fill('2026-01');
  await payouts.getByRole('button', { name: 'Ask for payouts' }).click();
  await expect(payouts.getByTestId('payouts-made')).toContainText(/^Nothing new: 0 payouts of this month asked already/);
  await shot(page, 'agents');

  // At 375 px the page does not scroll sideways.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(statement).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
