import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { admin, sharedServer, signIn, staff } from '../support.ts';

const MESSAGE = 'Karibu! Your D2 tips start tomorrow morning. Betdesk';

async function tokenOf(request: APIRequestContext, who: { email: string; password: string }): Promise<string> {
  const res = await request.post('/api/auth/login', { data: who });
  return (await res.json()).token as string;
}

/** The webhook secret the test's shared E2E server generated into its data directory. */
function webhookSecret(): string {
  const file = join(sharedServer().dataDir, 'local-secrets.json');
  return JSON.parse(readFileSync(file, 'utf8')).webhookSecret as string;
}

test.describe('SMS log', () => {
  test('shows a message sent to a subscriber, its delivery report, and its details', async ({ page, request }) => {
    test.setTimeout(150_000);
    const token = await tokenOf(request, admin);
    const headers = { authorization: `Bearer ${token}` };
    const subscribers = await (await request.get('/api/tips/subscribers/active?perPage=50', { headers })).json();
    const subscriber = subscribers.subscribers[0];
    const sent = await request.post('/api/tips/subscribers/send-sms', {
      headers,
      data: { subscriber_id: subscriber.id, message: MESSAGE },
    });
    expect(sent.status()).toBe(200);

    // The queue sends it through the log gateway; then the gateway reports it failed.
    let message: { id: number; status: string } | undefined;
    await expect
      .poll(async () => {
        const log = await (await request.get(`/api/sms/log?search=${subscriber.phone}`, { headers })).json();
        message = log.messages.find((m: { message: string }) => m.message === MESSAGE);
        return message?.status;
      }, { timeout: 90_000 })
      .toBe('sent');
    const detail = await (await request.get(`/api/sms/log/show?id=${message!.id}`, { headers })).json();
    const report = await request.post(`/api/hooks/sms/delivery/${webhookSecret()}`, {
      form: { id: detail.message.provider_message_id, status: 'Failed', failureReason: 'UserInBlackList', networkCode: '63902' },
    });
    expect(report.status()).toBe(200);

    await signIn(page, admin);
    await page.getByRole('link', { name: 'SMS Log' }).click();
    await expect(page).toHaveURL(/\/sms$/);
    await expect(page.getByRole('heading', { name: 'SMS Log' })).toBeVisible();

    const table = page.getByTestId('sms-log-table');
    await page.getByTestId('table-search').fill(subscriber.phone);
    await page.getByTestId('table-search').press('Enter');
    const row = table.getByRole('row').filter({ hasText: MESSAGE });
    await expect(row).toBeVisible();
    await expect(row).toContainText(subscriber.name);
    await expect(row).toContainText('Failed');

    await page.getByTestId('sms-status-filter').getByText(/^Failed/).click();
    await expect(table.getByRole('row').filter({ hasText: MESSAGE })).toBeVisible();
    await page.getByTestId('sms-status-filter').getByText(/^Delivered/).click();
    await expect(table.getByText(MESSAGE)).toHaveCount(0);
    await expect(table).toContainText('No messages.');
    await page.getByTestId('sms-status-filter').getByText(/^All/).click();

    await table.getByRole('row').filter({ hasText: MESSAGE }).getByRole('button', { name: 'View' }).click();
    const drawer = page.getByTestId('sms-message-detail');
    await expect(drawer).toContainText(MESSAGE);
    await expect(drawer).toContainText('UserInBlackList');
    await expect(drawer).toContainText('63902');
    await expect(drawer).toContainText('tips-subscriber.message');
    await page.keyboard.press('Escape');

    // The subscriber's own page lists the message and its fate too.
    await page.goto(`/tips/subscribers/view/${subscriber.id}`);
    const mine = page.getByTestId('person-messages').getByRole('row').filter({ hasText: MESSAGE });
    await expect(mine).toBeVisible();
    await expect(mine).toContainText('Failed');
    await expect(mine).toContainText('UserInBlackList');

    // An admin sends the failed message again from its drawer, after confirming: a new row appears.
    await page.goto('/sms');
    await page.getByTestId('table-search').fill(subscriber.phone);
    await page.getByTestId('table-search').press('Enter');
    await expect(table.getByRole('row').filter({ hasText: MESSAGE })).toHaveCount(1);
    await table.getByRole('row').filter({ hasText: MESSAGE }).getByRole('button', { name: 'View' }).click();
    await page.getByTestId('sms-resend').click();
    await expect(page.getByText('Are you sure you want to do this!')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(table.getByRole('row').filter({ hasText: MESSAGE })).toHaveCount(1);
    await page.getByTestId('sms-resend').click();
    await page.getByTestId('confirm-trash').click();
    await expect(page.getByText('SMS queued again')).toBeVisible();
    await expect(page.getByTestId('sms-resent-from')).toContainText(`#${message!.id}`);
    await expect(page.getByTestId('sms-resend')).toHaveCount(0);
    await page.keyboard.press('Escape');
    const rows = table.getByRole('row').filter({ hasText: MESSAGE });
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Failed' })).toHaveCount(1);
    const log = await (await request.get(`/api/sms/log?search=${subscriber.phone}`, { headers })).json();
    const copies = log.messages.filter((m: { message: string }) => m.message === MESSAGE);
    expect(copies).toHaveLength(2);
    const copy = await (await request.get(`/api/sms/log/show?id=${copies[0].id}`, { headers })).json();
    expect(copy.message.resent_from_id).toBe(message!.id);
    // A second resend of the same message is refused while the first is under way or sent.
    const again = await request.post('/api/sms/resend', { headers, data: { id: message!.id } });
    expect(again.status()).toBe(409);
  });

  test('is not in the staff menu and its API refuses staff', async ({ page, request }) => {
    await signIn(page, staff);
    await expect(page.getByRole('link', { name: 'SMS Log' })).toHaveCount(0);
    const token = await tokenOf(request, staff);
    const res = await request.get('/api/sms/log', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(403);
  });
});
