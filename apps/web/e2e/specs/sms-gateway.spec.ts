import { expect, type APIRequestContext } from '@playwright/test';
import { admin, shot, signIn, testWithOwnServer } from '../support.ts';

/**
 * Issue 12: a whole call refused by Africa's Talking raises the admin banner. The shared E2E server
 * sends through the log gateway, which never refuses; this spec runs its own server against the
 * fake Africa's Talking, which it can make refuse.
 */
const test = testWithOwnServer();

const MESSAGE = 'Your D2 stake is placed: Gor Mahia win @1.85. Betdesk';
const PHONE = '0712345678';

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
      expect(res.ok()).toBe(true);
      return (await res.json()) as T;
    },
  };
}

type LoggedSms = { id: number; message: string; status: string; failure_cause: string | null };

test.describe('SMS gateway refusal', () => {
  test("an admin sees the banner while Africa's Talking refuses the API key, resends by cause once it is fixed, and the banner goes", async ({
    page,
    request,
    gateway,
  }) => {
    test.setTimeout(120_000);
    // Wrong credentials: Africa's Talking answers every messaging call 401 until they are fixed.
    gateway.onCall = () => gateway.failNextCalls(401);
    const api = await adminApi(request);
    const { client_id } = await api.post<{ client_id: number }>('/api/clients/store', { name: 'Otieno Kamau', phone: PHONE });
    await api.post('/api/messages', { id: client_id, message: MESSAGE });
    const messagesTo = async () =>
      (await api.get<{ messages: LoggedSms[] }>(`/api/sms/log?search=${PHONE}`)).messages.filter((m) => m.message === MESSAGE);
    await expect
      .poll(async () => (await messagesTo()).map((m) => `${m.status} ${m.failure_cause}`), { timeout: 60_000 })
      .toEqual(['failed InvalidCredentials']);
    expect(gateway.calls.map((call) => call.answered)).toEqual([401]);

    await signIn(page, admin);
    const banner = page.getByTestId('sms-refusal-banner');
    await expect(banner).toContainText('SMS are not going out');
    await expect(banner).toContainText(
      "Africa's Talking refuses the username or API key: SMS are failing. Fix AT_USERNAME / AT_API_KEY, then resend the failed messages by cause.",
    );
    await expect(banner).toContainText("Africa's Talking refused the username or API key (HTTP 401)");
    await shot(page, 'sms-refusal-dashboard');

    // The banner leads to the log, where failed messages are resent by cause.
    await banner.getByRole('link', { name: 'Open the SMS log' }).click();
    await expect(page).toHaveURL(/\/sms$/);
    await expect(page.getByTestId('sms-alert-log-link')).toHaveCount(0);
    await expect(banner).toContainText('SMS are not going out');
    const table = page.getByTestId('sms-log-table');
    const failed = table.getByRole('row').filter({ hasText: MESSAGE });
    await expect(failed).toHaveCount(1);
    await expect(failed).toContainText('Failed');
    await expect(failed).toContainText('InvalidCredentials');
    await shot(page, 'sms-refusal-log');

    // The key is fixed at Africa's Talking: the admin resends the failed messages of that cause.
    gateway.onCall = null;
    const byCause = page.getByTestId('sms-resend-by-cause');
    await expect(byCause.getByRole('button', { name: 'Resend all' })).toBeDisabled();
    await page.getByTestId('sms-cause-select').click();
    await page.getByRole('option', { name: 'InvalidCredentials (1)' }).click();
    await expect(byCause).toContainText('1 message');
    await byCause.getByRole('button', { name: 'Resend all' }).click();
    await expect(page.getByText('Send 1 failed SMS again?')).toBeVisible();
    await expect(page.getByText('Every message that failed with InvalidCredentials and was not resent yet is queued again, once.')).toBeVisible();
    await page.getByRole('button', { name: 'Yes, resend them' }).click();
    await expect(page.getByText('1 failed message queued again')).toBeVisible();

    // The copy goes out; the live update takes the banner and the resend choice away without a reload.
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await expect(byCause).toHaveCount(0);
    const rows = table.getByRole('row').filter({ hasText: MESSAGE });
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Sent' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'InvalidCredentials' })).toHaveCount(1);
    expect(gateway.accepted.map((sms) => [sms.number, sms.message])).toEqual([[`+254${PHONE.slice(1)}`, MESSAGE]]);
    await shot(page, 'sms-refusal-resent');
  });
});
