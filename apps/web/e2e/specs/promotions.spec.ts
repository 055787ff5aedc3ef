import { expect, test } from '@playwright/test';
import { admin, shot, signIn } from '../support.ts';

/**
 * Issue 49, item 3 (decision 061): an admin's broadcast that promises "guaranteed income" is refused
 * with the words named, the responsible-gambling lines are counted in its parts, and the refusal is
 * in Reports → Promotions blocked.
 */
test('a broadcast promising guaranteed income is refused with the words named, and the refusal is reported', async ({ page, request }) => {
  const login = await request.post('/api/auth/login', { data: admin });
  const headers = { authorization: `Bearer ${(await login.json()).token as string}`, 'x-requested-with': 'XMLHttpRequest' };
  const { clients } = await (await request.get('/api/clients?page=1&perPage=50', { headers })).json();
  for (const client of (clients as { phone: string }[]).slice(0, 2)) {
    const consent = await request.post('/api/privacy/consent', { headers, data: { phone: client.phone, given: true, note: 'Agreed on the phone' } });
    expect(consent.ok()).toBe(true);
  }

  await signIn(page, admin);
  await page.goto('/sms/broadcasts');
  await page.getByTestId('broadcast-segment').click();
  await page.getByRole('option', { name: 'All clients' }).click();
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('Guaranteed income every weekend: join our VIP tips today');
  await page.getByRole('button', { name: 'Preview' }).click();

  const blocked = page.getByTestId('broadcast-blocked');
  await expect(blocked).toContainText('This text cannot be sent');
  await expect(blocked).toContainText('“Guaranteed”');
  await expect(blocked).toContainText('“income”');
  await expect(blocked).toContainText('source of income');
  // The lines the server adds are shown and counted with the text.
  await expect(page.getByTestId('broadcast-preview')).toContainText('18+. Gambling is addictive. Play responsibly.');
  await expect(page.getByTestId('sms-composer-appended')).toContainText('18+. Gambling is addictive. Play responsibly.');
  await shot(page, 'broadcast-banned-claim');

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const refusal = page.getByText(/Not sent: the text makes a claim gambling promotion may not make/);
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('"Guaranteed"');
  await expect(refusal).toContainText('"income"');
  await expect(page.getByText(/Broadcast queued/)).toHaveCount(0);

  await page.goto('/reports?report=promotions');
  const table = page.getByTestId('promotions-table');
  await expect(table).toContainText('"income", "Guaranteed"');
  await expect(table).toContainText('Broadcast: All clients');
});
