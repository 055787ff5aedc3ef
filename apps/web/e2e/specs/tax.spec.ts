import { expect, type APIRequestContext } from '@playwright/test';
import { admin, declareAdult, shot, signIn, testWithOwnServer } from '../support.ts';

/**
 * Issue 28: KRA eTIMS tax invoices. The spec runs its own server (demo data, the in-process fake
 * OSCU, a fake Africa's Talking for the portal's sign-in code) so that initialising the device does not change the shared server's dashboard.
 */
const WEBHOOK_SECRET = 'e2e-tax-webhook-secret-0123';
const SHORTCODE = '600984';

const test = testWithOwnServer({
  SEED_DEMO: '1',
  ETIMS_FAKE: '1',
  SECRETS_KEY: '1'.repeat(64),
  WEBHOOK_SECRET,
  MPESA_SHORTCODE: SHORTCODE,
});

async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: admin });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };
  return {
    async get<T>(path: string): Promise<T> {
      const res = await request.get(path, { headers });
      expect(res.ok()).toBe(true);
      return (await res.json()) as T;
    },
    async post<T>(path: string, data: unknown): Promise<T> {
      const res = await request.post(path, { headers, data });
      expect(res.ok(), await res.text()).toBe(true);
      return (await res.json()) as T;
    },
  };
}

/** Now as M-Pesa writes a TransTime (Nairobi, YYYYMMDDhhmmss): the sale falls in the list's default days. */
const nairobiNow = () => new Date(Date.now() + 3 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);

test.describe('Tax invoices', () => {
  test('an admin turns invoicing on, a claimed payment is invoiced by KRA, its QR link is on the payment and subscription rows, and its QR on the punter’s portal', async ({ page, request, gateway }) => {
    test.setTimeout(120_000);
    const api = await adminApi(request);
    await signIn(page, admin);
    await expect(page.getByTestId('tax-banner')).toContainText('invoicing is off');

    await page.getByRole('link', { name: 'Tax', exact: true }).click();
    await expect(page).toHaveURL(/\/tax$/);
    await expect(page.getByTestId('invoicing-state')).toHaveText(/invoicing off/i);
    await page.getByTestId('tax-tin').fill('P051234567X');
    await page.getByTestId('tax-serial').fill('BETDESK-E2E');
    await page.getByTestId('tax-save').click();
    await expect(page.getByText('Tax settings saved')).toBeVisible();
    await page.getByTestId('tax-initialise').click();
    await expect(page.getByTestId('invoicing-state')).toHaveText(/invoicing on/i);

    // A payment for the D2 category from a masked MSISDN (so it waits unclaimed: no phone names the
    // payer), claimed by the admin to a subscriber: the claim buys the D2 package of its price, a
    // sale. (An account naming no category leaves the money as credit: not a sale, no invoice.)
    const { subscribers } = await api.get<{ subscribers: { id: number; phone: string }[] }>('/api/tips/subscribers/active?perPage=50');
    const { packages } = await api.get<{ packages: { name: string; price: number }[] }>('/api/tips/prices/sms-tips');
    const d2 = packages.find((p) => p.name.startsWith('Daily 2 Odds'))!;
    const receipt = `TAX${Date.now().toString().slice(-7)}`;
    const confirmed = await request.post(`/api/hooks/c2b/confirmation/${WEBHOOK_SECRET}`, {
      data: {
        TransactionType: 'Pay Bill', TransID: receipt, TransTime: nairobiNow(), TransAmount: d2.price.toFixed(2),
        BusinessShortCode: SHORTCODE, BillRefNumber: 'D2', InvoiceNumber: '', OrgAccountBalance: '', ThirdPartyTransID: '',
        MSISDN: '2547 ***** 222', FirstName: 'TAX', MiddleName: '', LastName: 'PAYER',
      },
    });
    expect(confirmed.ok()).toBe(true);
    const { transactions } = await api.get<{ transactions: { id: number; status: string }[] }>(`/api/mpesa-transactions?search=${receipt}`);
    expect(transactions[0]!.status).toBe('unclaimed');
    await api.post('/api/mpesa-transactions/claim', { transaction_id: transactions[0]!.id, subscriber_id: subscribers[0]!.id });

    // The job sends it without anyone acting.
    await expect
      .poll(async () => (await api.get<{ invoices: { trans_id: string | null; status: string }[] }>('/api/tax/invoices?perPage=50')).invoices.find((i) => i.trans_id === receipt)?.status, { timeout: 30_000 })
      .toBe('sent');

    await page.reload();
    await page.getByTestId('tax-status-filter').click();
    await page.getByRole('option', { name: 'sent' }).click();
    await expect(page.getByTestId('tax-invoices-table').getByTestId('table-row').first()).toContainText('sent');
    await expect(page.getByTestId('tax-totals')).toContainText('documents');
    await expect(page.getByTestId('tax-summary')).toContainText('D');
    await shot(page, 'tax');

    await page.goto('/mpesa');
    await page.getByPlaceholder('Sender name, phone or ref, then Enter').fill(receipt);
    await page.keyboard.press('Enter');
    const link = page.getByTestId(`invoice-${receipt}`);
    await expect(link).toHaveAttribute('href', /indexEtimsReceiptData\?Data=P051234567X00[0-9A-F]+$/);

    // The subscription the claim bought carries the same invoice, on the subscriber's page.
    await page.goto(`/tips/subscribers/view/${subscribers[0]!.id}`);
    await expect(page.locator('[data-testid^="subscription-invoice-"]').filter({ hasText: /^Invoice \d+$/ }).first()).toHaveAttribute(
      'href',
      /indexEtimsReceiptData\?Data=P051234567X00[0-9A-F]+$/,
    );
    await shot(page, 'subscriber-invoice');

    // The punter signs in to the portal: My subscriptions shows the invoice's QR, drawn by the server.
    const local = `0${subscribers[0]!.phone.slice(3)}`;
    await page.context().clearCookies();
    await page.goto('/portal/sign-in?next=/portal/account');
    await page.getByLabel('Phone number').fill(local);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    let code = '';
    await expect
      .poll(() => {
        const sms = gateway.accepted.find((m) => m.number === `+${subscribers[0]!.phone}` && /sign-in code/.test(m.message));
        code = sms?.message.match(/\b(\d{6})\b/)?.[1] ?? '';
        return code;
      })
      .toMatch(/^\d{6}$/);
    await page.getByLabel(/6-digit code/).fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/portal\/account$/);
    await expect(page.getByRole('img', { name: 'Check this invoice with KRA' }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Check this invoice with KRA' }).first()).toHaveAttribute('href', /indexEtimsReceiptData\?Data=P051234567X00[0-9A-F]+$/);
    await expect(page.getByText(/KRA tax invoice \d+, KRA receipt \d+\./).first()).toBeVisible();
    await shot(page, 'portal-account-invoice');
  });
});

test.describe('The accountant', () => {
  test('downloads November’s VAT return (CSV and Excel) from the Tax screen and sees the transmissions list', async ({ page, request }) => {
    test.setTimeout(120_000);
    const api = await adminApi(request);
    await api.post('/api/tax/settings', { tin: 'P051234567X', branch_id: '00', device_serial: 'BETDESK-E2E', vat_registered: true });
    const settings = await api.get<{ initialised: boolean }>('/api/tax/settings');
    if (!settings.initialised) await api.post('/api/tax/initialise', {});
    // A sale paid in November (M-Pesa's TransTime) and confirmed now: November's by the tax point. The
    // payer declared 18+ by SMS first (decision 066), so the payment buys the package.
    await declareAdult(request, WEBHOOK_SECRET, '254733555001');
    const receipt = `NOV${Date.now().toString().slice(-7)}`;
    const { packages } = await api.get<{ packages: { name: string; price: number }[] }>('/api/tips/prices/sms-tips');
    const d2 = packages.find((p) => p.name.startsWith('Daily 2 Odds'))!;
    const confirmed = await request.post(`/api/hooks/c2b/confirmation/${WEBHOOK_SECRET}`, {
      data: {
        TransactionType: 'Pay Bill', TransID: receipt, TransTime: '20261130235000', TransAmount: d2.price.toFixed(2),
        BusinessShortCode: SHORTCODE, BillRefNumber: 'D2', InvoiceNumber: '', OrgAccountBalance: '', ThirdPartyTransID: '',
        MSISDN: '254733555001', FirstName: 'NOVEMBER', MiddleName: '', LastName: 'PAYER',
      },
    });
    expect(confirmed.ok()).toBe(true);
    await expect
      .poll(async () => (await api.get<{ summary: { count: number }[] }>('/api/tax/returns/vat?month=2026-11')).summary.reduce((n, s) => n + s.count, 0))
      .toBeGreaterThan(0);

    await signIn(page, admin);
    await page.goto('/tax');
    await expect(page.getByTestId('tax-transmissions')).toBeVisible();
    await expect(page.getByTestId('transmission-counts')).toContainText(/\d+ queued · \d+ retrying · \d+ rejected · \d+ older than 24 h/);
    await page.getByTestId('tax-month').fill('2026-11');

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('vat-return-csv').click()]);
    expect(csv.suggestedFilename()).toBe('vat-return-2026-11.csv');
    const text = await (await import('node:fs/promises')).readFile((await csv.path())!, 'utf8');
    expect(text.split('\r\n')[0]).toMatch(/^PIN of Purchaser,Name of Purchaser,ETR Serial Number,Invoice Date,Invoice Number,/);
    expect(text).toContain('Daily 2 Odds');

    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('vat-return-xlsx').click()]);
    expect(xlsx.suggestedFilename()).toBe('vat-return-2026-11.xlsx');
    const bytes = await (await import('node:fs/promises')).readFile((await xlsx.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    await page.getByTestId('tax-transmissions').scrollIntoViewIfNeeded();
    await shot(page, 'tax-accountant');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByTestId('tax-transmissions')).toBeVisible();
    await shot(page, 'tax-accountant-375');
  });

  test('records a buyer’s KRA PIN on the subscriber’s page, prints the buyer’s invoice as a PDF and texts them a link to it', async ({ page, request, gateway }) => {
    test.setTimeout(120_000);
    const api = await adminApi(request);
    // A subscriber whose purchase was invoiced by the tests above (the newest subscribers, who bought).
    const { subscribers } = await api.get<{ subscribers: { id: number }[] }>('/api/tips/subscribers/active?perPage=50');
    let buyer: { id: number } | undefined;
    for (const s of subscribers.slice(0, 10)) {
      const view = await api.get<{ invoices: unknown[] }>(`/api/tips/subscribers/${s.id}/tax-identity`);
      if (view.invoices.length > 0) {
        buyer = s;
        break;
      }
    }
    expect(buyer).toBeDefined();
    await signIn(page, admin);
    await page.goto(`/tips/subscribers/view/${buyer!.id}`);
    const card = page.getByTestId('tax-identity');
    await expect(card).toContainText('No KRA PIN recorded');
    await card.getByTestId('edit-tax-identity').click();
    await card.getByTestId('tax-pin').fill('P05123');
    await card.getByTestId('tax-name').fill('November Traders Ltd');
    await card.getByTestId('save-tax-identity').click();
    // A PIN not in KRA's shape is refused under its field, and nothing is recorded.
    await expect(card.getByTestId('tax-pin')).toHaveAttribute('aria-invalid', 'true');
    await expect(card.getByTestId('tax-identity-pin')).toHaveCount(0);
    await card.getByTestId('tax-pin').fill('p051234567x');
    await card.getByTestId('save-tax-identity').click();
    await expect(card.getByTestId('tax-identity-pin')).toHaveText('P051234567X · November Traders Ltd');

    const { invoices } = await api.get<{ invoices: { id: number; number: number }[] }>(`/api/tips/subscribers/${buyer!.id}/tax-identity`);
    expect(invoices.length).toBeGreaterThan(0);
    const [pdf] = await Promise.all([page.waitForEvent('download'), card.getByTestId(`invoice-pdf-${invoices[0]!.id}`).click()]);
    expect(pdf.suggestedFilename()).toBe(`invoice-${invoices[0]!.number}.pdf`);
    const bytes = await (await import('node:fs/promises')).readFile((await pdf.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await shot(page, 'tax-identity');

    // A link to it by SMS (decision 087): the buyer's phone gets it, and it opens the PDF without signing in.
    await card.getByTestId(`invoice-sms-link-${invoices[0]!.id}`).click();
    await expect(page.getByText(/Invoice link sent by SMS to 2547\d\d\*\*\*\d{3}/)).toBeVisible();
    let link = '';
    await expect
      .poll(() => {
        const sms = gateway.accepted.find((m) => /Your tax invoice INV-/.test(m.message));
        link = sms?.message.match(/\/portal\/i\/[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{22}/)?.[0] ?? '';
        return link;
      }, { timeout: 30_000 })
      .not.toBe('');
    // The buyer opens it on a phone: a portal page with the receipt and the A4 invoice.
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(link);
    await expect(phone.getByRole('heading', { level: 1 })).toHaveText(/^Tax invoice INV-/);
    await expect(phone.getByTestId('invoice-link-a4')).toBeVisible();
    await shot(phone, 'invoice-link-375');
    const receiptHref = await phone.getByTestId('invoice-link-receipt').getAttribute('href');
    await phone.close();
    const opened = await request.get(receiptHref!);
    expect(opened.status()).toBe(200);
    expect(opened.headers()['content-type']).toMatch(/^application\/pdf/);
    expect((await opened.body()).subarray(0, 5).toString()).toBe('%PDF-');
    // Asked again the same day: one SMS, and the toast says so.
    await card.getByTestId(`invoice-sms-link-${invoices[0]!.id}`).click();
    await expect(page.getByText('A link to this invoice was already sent by SMS today')).toBeVisible();
  });
});
