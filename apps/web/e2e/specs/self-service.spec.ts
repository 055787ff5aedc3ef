import { expect, test, type Page } from '@playwright/test';
import { admin, signIn, simulatePayment, simulateSms } from '../support.ts';

const shot = (page: Page, name: string) =>
  process.env.E2E_SCREENSHOTS ? page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: true }) : null;

test.describe('Self-service tips', () => {
  test('a new payer who pays "D2" is subscribed with a receipt SMS; texting STOP opts them out and lands in the inbox', async ({
    page,
    request,
  }) => {
    // The price of a Daily 2 Odds SMS package, as the prices screen reads it.
    const login = await request.post('/api/auth/login', { data: admin });
    const headers = { authorization: `Bearer ${(await login.json()).token as string}`, 'x-requested-with': 'XMLHttpRequest' };
    const { packages } = await (await request.get('/api/tips/prices/sms-tips', { headers })).json();
    const d2 = (packages as { name: string; price: number }[]).find((p) => p.name.startsWith('Daily 2 Odds'))!;
    expect(d2).toBeDefined();

    // Someone nobody has seen before texts 18 to the short code (declaring 18+, decision 066), then pays
    // the paybill with account "D2" from a plain MSISDN.
    const digits = Date.now().toString().slice(-6);
    const phone = `0711${digits}`;
    const name = `AMANI SELFSERVE ${digits}`;
    const receipt = `SSS${digits}`;
    simulateSms(['--from', phone, '--text', '18']);
    simulatePayment(['--amount', String(d2.price), '--account', 'D2', '--phone', phone, '--msisdn-mode', 'plain', '--name', name, '--receipt', receipt]);

    await signIn(page, admin);
    await page.goto('/tips/subscribers/active');
    const table = page.getByTestId('subscribers-table');
    await expect(table).toContainText(phone);
    await table.getByRole('link', { name }).click();
    await expect(page).toHaveURL(/\/tips\/subscribers\/view\/\d+$/);
    const subscriberUrl = page.url();
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(page.getByText(phone)).toBeVisible();
    await expect(page.getByTestId('subscriber-subscriptions')).toContainText('Active');
    const messages = page.getByTestId('person-messages');
    await expect(messages).toContainText(`received (${receipt})`);
    await expect(messages).toContainText(`Your ${d2.name} tips run until`);
    await expect(page.getByTestId('sms-opt-out')).toContainText('Receives SMS');
    await shot(page, 'self-service-subscriber');

    // They text STOP to the short code (Africa's Talking posts it form-encoded to the inbound hook).
    simulateSms(['--from', phone, '--text', ' stop ']);
    await page.goto(subscriberUrl);
    const optOut = page.getByTestId('sms-opt-out');
    await expect(optOut).toContainText('Opted out of tips and offers');
    const history = page.getByTestId('sms-opt-out-history');
    await expect(history.getByRole('row').filter({ hasText: 'Texted STOP' })).toContainText('Opted out');
    // The confirmation is transactional, so it still reaches them.
    await expect(page.getByTestId('person-messages')).toContainText('no more tips');
    await shot(page, 'self-service-opted-out');

    await page.goto('/sms/inbox');
    await expect(page.getByRole('heading', { name: 'SMS Inbox' })).toBeVisible();
    await page.getByTestId('table-search').fill(phone);
    await page.getByTestId('table-search').press('Enter');
    const row = page.getByTestId('sms-inbox-table').getByRole('row').filter({ hasText: 'stop' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(phone);
    await expect(row).toContainText(name);
    await expect(row).toContainText('STOP');
    await expect(row).toContainText('Opted out of all tips and offers');
    await shot(page, 'self-service-inbox');

    // The name links back to the subscriber's view.
    await row.getByRole('link', { name }).click();
    await expect(page).toHaveURL(subscriberUrl);

    // START opts them back in; then Africa's Talking reports they opted out of the sender id.
    simulateSms(['--from', phone, '--text', 'START']);
    await page.reload();
    await expect(page.getByTestId('sms-opt-out')).toContainText('Receives SMS');
    simulateSms(['--from', phone, '--optout']);
    await page.reload();
    await expect(page.getByTestId('sms-opt-out')).toContainText('Opted out of tips and offers');
    await expect(page.getByTestId('sms-opt-out-history').getByRole('row').filter({ hasText: "Africa's Talking opt-out" })).toHaveCount(1);
  });
});
