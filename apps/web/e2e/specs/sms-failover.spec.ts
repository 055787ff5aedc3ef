import { expect } from '@playwright/test';
import { adminHeaders, admin, signIn, testWithOwnServer } from '../support.ts';

// The second aggregator of decision 062, as its in-process fake (every message delivered), beside the
// fake Africa's Talking: what an admin sees of the two providers.
const test = testWithOwnServer({ SEED_DEMO: '1', SMS_FAILOVER_PROVIDER: 'advanta-fake', ADVANTA_SENDER_ID: 'BETDESK' });

test('an admin sees both SMS providers, the provider of each message, and the month’s cost per provider', async ({ page, request, gateway }) => {
  const headers = await adminHeaders(request);
  const { subscribers } = await (await request.get('/api/tips/subscribers/active?perPage=50', { headers })).json();
  const subscriber = subscribers[0] as { id: number };
  const text = `Failover check ${Date.now()}`;
  expect((await request.post('/api/tips/subscribers/send-sms', { headers, data: { subscriber_id: subscriber.id, message: text } })).status()).toBe(200);
  await expect.poll(() => gateway.calls.some((c) => c.message === text), { timeout: 30_000 }).toBe(true);

  await signIn(page, admin);
  await page.goto('/sms');
  // Both providers with their state; the primary carries SMS while it is up.
  await expect(page.getByTestId('sms-provider-africastalking')).toBeVisible();
  await expect(page.getByTestId('sms-provider-advanta')).toBeVisible();
  await expect(page.getByTestId('sms-provider-state-africastalking')).toHaveText(/up|closed|healthy/i);
  // The log names the provider of the message and can be filtered by it.
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row).toContainText("Africa's Talking");
  await page.getByPlaceholder('Every provider').click();
  await page.getByRole('option', { name: 'Advanta' }).click();
  await expect(page.getByRole('row').filter({ hasText: text })).toHaveCount(0);

  // SMS Costs: this month, per provider and kind of text.
  await page.goto('/sms/costs');
  await expect(page.getByRole('heading', { name: 'SMS costs' })).toBeVisible();
  await expect(page.getByTestId('sms-costs-table')).toContainText("Africa's Talking");
  await expect(page.getByTestId('sms-costs-total')).toContainText(/KES/);
});
