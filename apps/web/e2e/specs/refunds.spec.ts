import { readFileSync } from 'node:fs';
import { expect, test as base, type APIRequestContext } from '@playwright/test';
import { generate } from 'otplib';
import { admin, partner, shot, signIn, staff, testWithOwnServerAndDaraja } from '../support.ts';

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

  // The subscriber pays KES 100 to account D2 from their phone: claimed, it buys the weekly package.
  const receipt = `SR${Date.now().toString().slice(-8)}`;
  const paid = await request.post(`/api/hooks/c2b/confirmation/${WEBHOOK_SECRET}`, {
    data: {
      TransactionType: 'Pay Bill',
      TransID: receipt,
      TransTime: '20261127090000',
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
  await expect(page.getByTestId('refunds-amount')).toContainText('40.00');
  await expect(page.getByTestId('utility-balance')).not.toContainText('Not known yet');
  await shot(page, 'refunds-done');
  // The CSV export is the list's filter: the done refund, with M-Pesa's receipt.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('refunds-table').getByTestId('table-export').click();
  const csv = readFileSync((await (await downloading).path())!, 'utf8');
  expect(csv).toMatch(new RegExp(`${receipt},40(\\.00)?,wrong_amount,,b2c,done,Administrator,Amina Wafula,RF`));

  // The payment shows what went back, and the package it bought now ends sooner.
  await page.goto(`/mpesa?search=${receipt}`);
  await expect(page.getByTestId(`refunded-${receipt}`)).toHaveText(/Refunded KES\s40\.00/);
  await shot(page, 'mpesa-refunded');
  await page.goto(`/tips/subscribers/view/${stored.subscriber.id}`);
  await expect(page.getByRole('main')).toContainText(shortenedTo!);
});

base('staff see neither the Refunds screen nor a Refund action', async ({ page }) => {
  await signIn(page, staff);
  await expect(page.getByRole('link', { name: 'Refunds' })).toHaveCount(0);
  await page.goto('/refunds');
  await expect(page.getByTestId('table-refused')).toBeVisible();
  await expect(page.getByTestId('refunds-count')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await page.goto('/mpesa');
  await expect(page.getByRole('button', { name: 'Refund' })).toHaveCount(0);
});
