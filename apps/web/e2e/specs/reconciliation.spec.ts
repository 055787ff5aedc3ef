import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { admin, signIn, simulateSms } from '../support.ts';

const shot = (page: Page, name: string) =>
  process.env.E2E_SCREENSHOTS ? page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: true }) : null;

async function adminGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const login = await request.post('/api/auth/login', { data: admin });
  const token = (await login.json()).token as string;
  const res = await request.get(path, { headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as T;
}

/** Nairobi time `minutesAgo` before now, as the portal writes it. */
const portalTime = (minutesAgo: number) =>
  new Date(Date.now() + 3 * 3_600_000 - minutesAgo * 60_000).toISOString().slice(0, 19).replace('T', ' ');

test.describe('M-Pesa reconciliation', () => {
  test('an admin uploads a portal statement and imports the receipt Betdesk missed onto the right subscriber', async ({ page, request }) => {
    const { subscribers } = await adminGet<{ subscribers: { id: number; name: string; phone: string }[] }>(
      request,
      '/api/tips/subscribers/active?perPage=50',
    );
    const subscriber = subscribers[0]!;
    // The newest subscriber may have been added by staff in another spec, without a declaration: the
    // phone declares 18+ (decision 066) so the imported payment buys, as this spec is about matching.
    simulateSms(['--from', subscriber.phone, '--text', '18']);
    const { packages } = await adminGet<{ packages: { name: string; price: number }[] }>(request, '/api/tips/prices/sms-tips');
    const d2 = packages.find((p) => p.name.startsWith('Daily 2 Odds'))!;
    const receipt = `SRE${Date.now().toString().slice(-7)}`;
    const csv = [
      'Account Holder:,BETDESK LIMITED',
      'Time Period:,"Today"',
      '',
      'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.',
      `${receipt},${portalTime(30)},${portalTime(30)},Pay Bill Online,Completed,"${d2.price.toLocaleString('en-US', { minimumFractionDigits: 2 })}",,"10,000.00",true,Pay Bill Online,${subscriber.phone} - ${subscriber.name.toUpperCase()},,D2`,
      `W${receipt.slice(1)},${portalTime(20)},${portalTime(20)},Business Payment Charge,Completed,,-15.00,"9,985.00",true,Business Payment Charge,,,`,
      '',
    ].join('\r\n');

    await signIn(page, admin);
    await page.goto('/mpesa/reconciliation');
    await expect(page.getByRole('heading', { name: 'M-Pesa Reconciliation' })).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('upload-statement').click();
    await expect(page.getByText('Statement compared')).toBeVisible();
    const result = page.getByTestId('statement-result');
    await expect(page.getByTestId('statement-missing')).toContainText('1');
    await expect(page.getByTestId('statement-rows')).toContainText(receipt);
    await expect(result).toContainText('charges 1');
    await shot(page, 'reconciliation-statement');

    await page.getByTestId('import-missing').click();
    await expect(page.getByText('1 missing receipt imported')).toBeVisible();
    await expect(page.getByTestId('statement-missing')).toContainText('0');
    await expect(page.getByTestId('import-missing')).toBeDisabled();
    await shot(page, 'reconciliation-imported');

    await page.goto('/mpesa');
    await page.getByPlaceholder('Sender name, phone or ref, then Enter').fill(receipt);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(`status-${receipt}`)).toHaveText(/^claimed$/i);
    await expect(page.getByTestId('mpesa-table')).toContainText(subscriber.name);
  });
});
