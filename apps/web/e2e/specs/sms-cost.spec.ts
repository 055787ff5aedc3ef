import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { admin, shot, signIn } from '../support.ts';

// axe-core is injected as a script tag, which the app's Content-Security-Policy rightly refuses.
test.use({ bypassCSP: true });

/** axe-core's serious and critical findings inside the composer (the screen itself is in accessibility.spec.ts). */
async function composerViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: string) => Promise<AxeResults> } }).axe.run('[data-testid="sms-composer"]'),
  );
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.length}`);
}

/** Issue 31: a broadcast that would cost two parts a person because of a curly apostrophe, fixed with one click. */
test('the broadcast composer shows 2 parts a person and the cost for a curly apostrophe, and one click makes it 1 part', async ({ page, request }) => {
  const login = await request.post('/api/auth/login', { data: admin });
  const headers = { authorization: `Bearer ${(await login.json()).token as string}`, 'x-requested-with': 'XMLHttpRequest' };
  // Two clients agree to offers by SMS, so the broadcast has someone to go to.
  const { clients } = await (await request.get('/api/clients?page=1&perPage=50', { headers })).json();
  for (const client of (clients as { phone: string }[]).slice(0, 2)) {
    const consent = await request.post('/api/privacy/consent', { headers, data: { phone: client.phone, given: true, note: 'Agreed on the phone' } });
    expect(consent.ok()).toBe(true);
  }
  // Any cost needs a confirmation for this test; restored after.
  const limit = (value: number) => request.post('/api/settings/update', { headers, data: { key: 'broadcast_cost_confirm_kes', value } });
  expect((await limit(0)).ok()).toBe(true);
  try {
    await signIn(page, admin);
    await page.goto('/sms/broadcasts');
    await page.getByTestId('broadcast-segment').click();
    await page.getByRole('option', { name: 'All clients' }).click();
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('We’ve got this weekend’s best odds: 3 games, one ticket. Reply D2 to join');

    const count = page.getByRole('status').filter({ hasText: 'per person' });
    await expect(count).toHaveText(/^Unicode: 2 SMS parts per person; Preview to count/);
    await expect(page.getByTestId('sms-composer-unicode')).toContainText('’ U+2019');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByTestId('broadcast-preview')).toContainText('2 SMS parts each');
    await expect(count).toHaveText(/^Unicode: 2 SMS parts per person; about KES\s[\d.,]+ for \d+ recipients?$/);
    const [, twoParts, people] = (await count.textContent())!.match(/about (KES\s[\d.,]+) for (\d+)/)!;
    await shot(page, 'sms-cost-unicode');
    expect(await composerViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Replace look-alikes' }).click();
    await expect(message).toHaveValue("We've got this weekend's best odds: 3 games, one ticket. Reply D2 to join");
    await expect(count).toHaveText(new RegExp(`^GSM-7: 1 SMS part per person; about KES\\s[\\d.,]+ for ${people} recipients?$`));
    const [, onePart] = (await count.textContent())!.match(/about (KES\s[\d.,]+)/)!;
    const kes = (text: string) => Number(text.replace(/[^\d.]/g, ''));
    expect(kes(onePart!) * 2).toBeCloseTo(kes(twoParts!));
    await expect(page.getByTestId('sms-composer-unicode')).toHaveCount(0);

    // Over the limit, Send asks to confirm the figure first.
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByTestId('broadcast-preview')).toContainText('1 SMS part each');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const confirm = page.getByTestId('broadcast-confirm');
    await expect(confirm).toContainText(`This broadcast costs about ${onePart}`);
    await confirm.getByRole('button', { name: `Confirm ${onePart} and send` }).click();
    await expect(page.getByText(/Broadcast queued: \d+ recipients/)).toBeVisible();
  } finally {
    await limit(1000);
  }
});
