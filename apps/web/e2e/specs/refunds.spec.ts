import { readFileSync } from 'node:fs';
import { expect, test as base, type APIRequestContext } from '@playwright/test';
import { generate } from 'otplib';
import { admin, declareAdult, partner, shot, signIn, staff, testWithOwnServerAndDaraja } from '../support.ts';

/**
 * Issue 29: an admin asks to refund part of a payment that bought a tips package, a second admin
 * approves it with a code from their authenticator, the fake M-Pesa pays it back by B2C, and
 * Betdesk shows the refund done, the payment refunded and the subscription shortened. Its own
 * server, with a fake Daraja (the shared E2E server has no M-Pesa) and a fake SMS gateway; the
 * operator made both admins on the server (an admin made in the web by the first could never approve
 * the first's refunds: decision 056).
 */
const WEBHOOK_SECRET = 'e2e-refunds-webhook-secret';
const certificate = readFileSync(new URL('../../../api/test/refunds/initiator-test.crt', import.meta.url), 'utf8');

const test = testWithOwnServerAndDaraja({ WEBHOOK_SECRET, MPESA_SHORTCODE: '600984' }, { callbackDelayMs: 0 }, [partner]);

/** M-Pesa's "YYYYMMDDHHmmss" for now, in Nairobi time: the payment lands on today's money check. */
const nairobiNow = () => new Date(Date.now() + 3 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
const nairobiToday = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);

async function apiAs(request: APIRequestContext, who: { email: string; password: string }) {
  const login = await request.post('/api/auth/login', { data: who });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  return {
    post: async <T>(path: string, data: unknown): Promise<T> => {
      const res = await request.post(path, { headers, data });
      expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
      return (await res.json()) as T;
    },
  };
}

test('an admin asks, a second admin approves with their code, M-Pesa pays back and the payment and subscription show it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, admin);
  const headers = { authorization: `Bearer ${((await (await request.post('/api/auth/login', { data: admin })).json()) as { token: string }).token}` };
  await api.post('/api/catalogue/bet-categories/store', { name: 'Daily 2 Odds', code: 'D2' });
  const form = (await (await request.get('/api/tips/subscribers/new', { headers })).json()) as { bet_categories: { id: number; code: string }[] };
  const d2 = form.bet_categories.find((c) => c.code === 'D2')!.id;
  await api.post('/api/tips/prices/store', { bet_category_id: d2, medium: 'sms', name: 'D2 SMS weekly', duration: 7, price: 100 });
  const stored = await api.post<{ subscriber: { id: number } }>('/api/tips/subscribers/store', {
    name: 'Grace Njeri Mwangi',
    phone: '0722111333',
    bet_category_id: d2,
    transmission_medium_id: 'sms',
    duration: 7,
  });

  // The second admin, whom the operator made on the server.
  const approver = { email: partner.email, password: partner.password };

  // The subscriber has declared 18+ (a reply 18 by SMS, decision 066), then pays KES 100 to account
  // D2 from their phone: claimed, it buys the weekly package.
  await declareAdult(request, WEBHOOK_SECRET, '+254722111333');
  const receipt = `SR${Date.now().toString().slice(-8)}`;
  const paid = await request.post(`/api/hooks/c2b/confirmation/${WEBHOOK_SECRET}`, {
    data: {
      TransactionType: 'Pay Bill',
      TransID: receipt,
      TransTime: nairobiNow(),
      TransAmount: '100.00',
      BusinessShortCode: '600984',
      BillRefNumber: 'D2',
      MSISDN: '254722111333',
      FirstName: 'GRACE',
      MiddleName: 'NJERI',
      LastName: 'MWANGI',
    },
  });
  expect(paid.ok(), await paid.text()).toBe(true);

  // The first admin saves the M-Pesa initiator on the Refunds screen (once, when refunds start).
  await signIn(page, admin);
  await page.goto('/refunds');
  await page.getByTestId('initiator-setup').click();
  const initiator = page.getByTestId('initiator-modal');
  await initiator.getByLabel('Initiator name').fill('betdesk-api');
  await initiator.getByLabel('Initiator password').fill('Safaricom-Initiator-1!');
  await initiator.getByLabel('M-Pesa public certificate (PEM)').fill(certificate);
  await initiator.getByRole('button', { name: 'Save' }).click();
  await expect(initiator.getByTestId('form-success')).toContainText('M-Pesa initiator saved');
  await initiator.getByRole('button', { name: 'Close' }).last().click();

  // The first admin asks to return KES 40 of it by B2C, shortening what it bought.
  await page.goto(`/mpesa?search=${receipt}`);
  await expect(page.getByTestId(`status-${receipt}`)).toHaveText('Claimed');
  await page.getByTestId(`refund-${receipt}`).click();
  const ask = page.getByTestId('refund-request-modal');
  await expect(ask.getByTestId('refund-left')).toContainText('100.00');
  await expect(ask.getByTestId('refund-bought')).toContainText('Tips package "D2 SMS weekly", 7 days');
  await ask.getByTestId('refund-amount').fill('40');
  await ask.getByTestId('refund-reason').selectOption('wrong_amount');
  await ask.getByTestId('refund-method-b2c').check();
  await ask.getByTestId('refund-effect-shorten').check();
  const shortenedTo = (await ask.getByTestId('refund-effect-shorten').locator('xpath=ancestor::div[contains(@class,"Radio-root")]').innerText()).match(
    /end on (.+)$/,
  )?.[1];
  expect(shortenedTo).toBeTruthy();
  await shot(page, 'refund-request');
  await ask.getByRole('button', { name: 'Ask for the refund' }).click();
  await expect(ask.getByTestId('form-success')).toContainText('another admin must approve it');
  // The form closes as every form does, and the row offers Refund again for the KES 60 left.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByTestId(`refund-${receipt}`).click();
  await expect(ask.getByTestId('refund-left')).toContainText(/at most KES\s60\.00/);
  await ask.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The admin who asked cannot approve it: the server's 403 shows in the form.
  await page.goto('/refunds?status=awaiting_approval');
  const row = page.getByTestId('refunds-table').getByRole('row').filter({ hasText: receipt });
  await expect(row).toContainText('Awaiting approval');
  await row.getByRole('button', { name: 'Approve' }).click();
  const approveDialog = page.getByTestId('approve-refund-modal');
  await approveDialog.getByTestId('approve-refund-code').fill('123456');
  await approveDialog.getByRole('button', { name: 'Approve and send' }).click();
  await expect(approveDialog.getByTestId('form-error')).toContainText('You asked for this refund');
  await approveDialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await shot(page, 'refunds-awaiting');
  await page.getByTestId('logout').click();

  // The second admin turns on their second factor, then approves with a fresh code; a wrong one first.
  const second = await apiAs(request, approver);
  const { secret } = await second.post<{ secret: string }>('/api/auth/2fa/setup', {});
  const enrolledAt = Math.floor(Date.now() / 1000) - 30;
  await second.post('/api/auth/2fa/enable', { code: await generate({ secret, epoch: enrolledAt }) });
  await page.getByLabel('Email').fill(approver.email);
  await page.getByLabel('Password').fill(approver.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const signedInAt = Math.max(Math.floor(Date.now() / 1000), enrolledAt + 30);
  await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: signedInAt }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/refunds');
  await page.getByTestId('refunds-table').getByRole('row').filter({ hasText: receipt }).getByRole('button', { name: 'Approve' }).click();
  await approveDialog.getByTestId('approve-refund-code').fill('000000');
  await approveDialog.getByRole('button', { name: 'Approve and send' }).click();
  // The 422 lands under the code field.
  await expect(approveDialog.getByTestId('approve-refund-code')).toHaveAccessibleDescription(/This code is not right/);
  await approveDialog.getByTestId('approve-refund-code').fill(await generate({ secret, epoch: signedInAt + 30 }));
  await approveDialog.getByRole('button', { name: 'Approve and send' }).click();
  await expect(approveDialog.getByTestId('form-success')).toContainText('being sent to M-Pesa');

  // The job sends it, the fake M-Pesa pays and posts its result: the refund is done.
  await expect(async () => {
    await page.goto('/refunds?status=done');
    await expect(page.getByTestId('refunds-table').getByRole('row').filter({ hasText: receipt })).toContainText('Done', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // What went back is shown apart from what is asked and what failed.
  await expect(page.getByTestId('refunds-refunded')).toContainText('40.00');
  await page.goto('/refunds');
  await expect(page.getByTestId('refunds-refunded')).toContainText('40.00');
  await expect(page.getByTestId('refunds-asked')).toContainText('0.00');
  await expect(page.getByTestId('refunds-failed')).toContainText('0.00');
  await page.goto('/refunds?status=done');
  await expect(page.getByTestId('utility-balance')).not.toContainText('Not known yet');
  await shot(page, 'refunds-done');
  // The CSV export is the list's filter: the done refund, with M-Pesa's receipt.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('refunds-table').getByTestId('table-export').click();
  const csv = readFileSync((await (await downloading).path())!, 'utf8');
  expect(csv).toMatch(new RegExp(`${receipt},40(\\.00)?,wrong_amount,,b2c,done,Administrator,Amina Wafula,RF`));

  // The daily money check balances with it: received 100 = claimed 60 + unclaimed 0 + refunded 40,
  // on the screen and in its CSV.
  const today = nairobiToday();
  await page.goto('/mpesa/reconciliation');
  await expect(page.getByTestId(`received-${today}`)).toContainText('100.00');
  await expect(page.getByTestId(`claimed-${today}`)).toContainText('60.00');
  await expect(page.getByTestId(`unclaimed-${today}`)).toContainText('0.00');
  await expect(page.getByTestId(`refunded-${today}`)).toContainText('40.00');
  await page.getByTestId(`refunded-${today}`).click();
  await expect(page.getByTestId('figure-rows')).toContainText(receipt);
  await shot(page, 'reconciliation-refunded');
  const downloadingDays = page.waitForEvent('download');
  await page.getByTestId('reconciliation-days').getByTestId('table-export').click();
  const days = readFileSync((await (await downloadingDays).path())!, 'utf8');
  expect(days.split('\r\n')[0]).toBe(
    'Day,Received (KES),Payments,Claimed (KES),Unclaimed (KES),Refunded (KES),Rejected,On Statement (KES),Difference (KES)',
  );
  expect(days).toContain(`${today},100.00,1,60.00,0.00,40.00,0,,`);

  // The payment shows what went back, and the package it bought now ends sooner.
  await page.goto(`/mpesa?search=${receipt}`);
  await expect(page.getByTestId(`refunded-${receipt}`)).toHaveText(/Refunded KES\s40\.00/);
  await shot(page, 'mpesa-refunded');
  await page.goto(`/tips/subscribers/view/${stored.subscriber.id}`);
  await expect(page.getByRole('main')).toContainText(shortenedTo!);
});

test("an admin marks the refunds M-Pesa's answers did not settle: one whose result paid KES 1 of 100, one M-Pesa never answered", async ({
  page,
  request,
  daraja,
}) => {
  test.setTimeout(120_000);
  const api = await apiAs(request, admin);
  // Flag an unknown refund at once (refund_unknown_alert_hours 0), not after the default 24 hours.
  await api.post('/api/settings/update', { key: 'refund_unknown_alert_hours', value: 0 });
  await api.post('/api/refunds/initiator', { name: 'betdesk-api', password: 'Safaricom-Initiator-1!', certificate });

  // Two payments to an account nobody has, from phones M-Pesa gave plainly: they wait unclaimed.
  const pay = async (receipt: string, amount: string, msisdn: string) => {
    const paid = await request.post(`/api/hooks/c2b/confirmation/${WEBHOOK_SECRET}`, {
      data: { TransactionType: 'Pay Bill', TransID: receipt, TransTime: nairobiNow(), TransAmount: amount, BusinessShortCode: '600984', BillRefNumber: 'NOBODY', MSISDN: msisdn, FirstName: 'PETER' },
    });
    expect(paid.ok(), await paid.text()).toBe(true);
  };
  const stamp = Date.now().toString().slice(-7);
  const short = `SH${stamp}1`;
  const silent = `SL${stamp}2`;
  await pay(short, '100.00', '254722555001');
  await pay(silent, '150.00', '254722555002');
  const search = async (receipt: string) => {
    const login = await request.post('/api/auth/login', { data: admin });
    const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const found = await request.get(`/api/mpesa-transactions/search?search=${receipt}`, { headers });
    return ((await found.json()) as { transactions: { id: number }[] }).transactions[0]!.id;
  };
  const askShort = await api.post<{ refund: { id: number } }>('/api/refunds', { payment_id: await search(short), amount: 100, reason: 'paid_twice', method: 'b2c' });
  const askSilent = await api.post<{ refund: { id: number } }>('/api/refunds', { payment_id: await search(silent), amount: 150, reason: 'policy', method: 'b2c' });

  // Both are asked back whole: neither row offers Refund any more (there would be KES 0.00 left).
  await signIn(page, admin);
  await page.goto(`/mpesa?search=${stamp}`);
  await expect(page.getByTestId(`status-${short}`)).toBeVisible();
  await expect(page.getByTestId(`status-${silent}`)).toBeVisible();
  await expect(page.getByTestId(`refund-${short}`)).toHaveCount(0);
  await expect(page.getByTestId(`refund-${silent}`)).toHaveCount(0);
  await page.getByTestId('logout').click();

  // M-Pesa pays KES 1 of the first; the second's queue times out and so does every status query.
  daraja.refundOutcomes.push({ resultCode: 0, callback: 'result', paidKes: 1, receipt: 'RFSHORT001' });
  daraja.refundOutcomes.push({ resultCode: 0, callback: 'timeout', statusQuery: 'silent' });

  // The second admin, whom the operator made on the server (one asked for in the web waits for a
  // second admin, decision 056), turns on their second factor and approves both.
  const second = await apiAs(request, { email: partner.email, password: partner.password });
  const { secret } = await second.post<{ secret: string }>('/api/auth/2fa/setup', {});
  // Each code is of its own 30-second step (a step is taken once): the last one, this one, the next.
  const now = Math.floor(Date.now() / 1000);
  await second.post('/api/auth/2fa/enable', { code: await generate({ secret, epoch: now - 30 }) });
  await second.post(`/api/refunds/${askShort.refund.id}/approve`, { code: await generate({ secret, epoch: now }) });
  await second.post(`/api/refunds/${askSilent.refund.id}/approve`, { code: await generate({ secret, epoch: now + 30 }) });

  await signIn(page, admin);
  const rowOf = (receipt: string) => page.getByTestId('refunds-table').getByRole('row').filter({ hasText: receipt });
  await expect(async () => {
    await page.goto('/refunds');
    await expect(rowOf(short)).toContainText('Held for review', { timeout: 1_000 });
    await expect(page.getByTestId(`refund-attention-${askSilent.refund.id}`)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId('refunds-need-admin')).toContainText('2 refunds need an admin');
  await expect(page.getByTestId(`refund-attention-${askShort.refund.id}`)).toContainText('M-Pesa paid KES 1.00; the refund is KES 100.00');
  await expect(page.getByTestId(`refund-attention-${askSilent.refund.id}`)).toContainText('Look for it on the M-Pesa statement');
  await expect(rowOf(silent)).toContainText('Unknown');
  // Neither counts as refunded: both are still asked.
  await expect(page.getByTestId('refunds-refunded')).toContainText('0.00');
  await expect(page.getByTestId('refunds-asked')).toContainText('250.00');
  await shot(page, 'refunds-need-admin');

  // The statement shows KES 1 only for the first: it failed, and can be asked again.
  await page.getByTestId(`resolve-refund-${askShort.refund.id}`).click();
  const dialog = page.getByTestId('resolve-refund-modal');
  await dialog.getByTestId('resolve-refund-failed').check();
  await dialog.getByRole('button', { name: 'Mark it' }).click();
  await expect(dialog.getByTestId('resolve-refund-note')).toHaveAccessibleDescription(/Say what the M-Pesa statement shows/);
  await dialog.getByTestId('resolve-refund-note').fill('Statement shows KES 1.00 only');
  await dialog.getByRole('button', { name: 'Mark it' }).click();
  await expect(dialog.getByTestId('form-success')).toContainText('Refund marked failed');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(rowOf(short)).toContainText('Failed');

  // The second went back: done, with the receipt the statement shows (the server asks for it first).
  await page.getByTestId(`resolve-refund-${askSilent.refund.id}`).click();
  await dialog.getByTestId('resolve-refund-note').fill('Statement shows KES 150.00 to 0722555002');
  await dialog.getByRole('button', { name: 'Mark it' }).click();
  await expect(dialog.getByTestId('resolve-refund-receipt')).toHaveAccessibleDescription(/Enter the M-Pesa receipt/);
  await dialog.getByTestId('resolve-refund-receipt').fill('rfstmt0001');
  await dialog.getByRole('button', { name: 'Mark it' }).click();
  await expect(dialog.getByTestId('form-success')).toContainText('Refund marked done');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(rowOf(silent)).toContainText('Done');
  await expect(rowOf(silent)).toContainText('RFSTMT0001');
  await expect(page.getByTestId('refunds-need-admin')).toHaveCount(0);
  await expect(page.getByTestId('refunds-refunded')).toContainText('150.00');
  await expect(page.getByTestId('refunds-failed')).toContainText('100.00');
  await expect(page.getByTestId('refunds-asked')).toContainText('0.00');
});

base('staff see neither the Refunds screen nor a Refund action', async ({ page }) => {
  await signIn(page, staff);
  await expect(page.getByRole('link', { name: 'Refunds' })).toHaveCount(0);
  await page.goto('/refunds');
  await expect(page.getByTestId('screen-refused')).toBeVisible();
  await expect(page.getByTestId('refunds-count')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await page.goto('/mpesa');
  await expect(page.getByRole('button', { name: 'Refund' })).toHaveCount(0);
});
