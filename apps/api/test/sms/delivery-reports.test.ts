import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAfricasTalking } from '../../src/integrations/sms/fake-africastalking.ts';
import type { SmsGateway } from '../../src/integrations/sms/gateway.ts';
import { dispatchQueuedSms } from '../../src/modules/sms/outbox.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { fakeGateway, messagesById, queueTo } from './sms-test-kit.ts';

const SECRET = 'test-webhook-secret-0123';
const HOOK = `/api/hooks/sms/delivery/${SECRET}`;

let t: TestApp;
let fake: FakeAfricasTalking;
let gateway: SmsGateway;
beforeAll(async () => {
  t = await createTestApp();
  ({ fake, gateway } = await fakeGateway());
});
afterAll(async () => {
  await fake.close();
  await t.close();
});

/** Queues and sends one message through the fake; returns its row id and provider id. */
async function sentMessage(phone: string): Promise<{ id: number; providerId: string }> {
  const [id] = await queueTo(t.deps.database, [phone], 'Delivery test');
  await dispatchQueuedSms(t.deps.database, gateway);
  const [row] = await messagesById(t.deps.database, [id!]);
  return { id: id!, providerId: String(row!.provider_message_id) };
}

function postReport(form: Record<string, string>, url = HOOK) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

describe('SMS delivery reports', () => {
  it('marks a message delivered on a Success report posted by the gateway', async () => {
    const { id, providerId } = await sentMessage('254712300001');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const status = await fake.deliver(`${address}${HOOK}`, {
      id: providerId,
      status: 'Success',
      phoneNumber: '+254712300001',
      networkCode: '63902',
    });
    expect(status).toBe(200);
    expect(await messagesById(t.deps.database, [id])).toEqual([
      expect.objectContaining({ status: 'delivered', provider_status: 'Success', network_code: '63902', delivered_at: expect.anything() }),
    ]);
  });

  it('records a Failed report with its reason', async () => {
    const { id, providerId } = await sentMessage('254712300002');
    const res = await postReport({ id: providerId, status: 'Failed', failureReason: 'UserInBlackList', networkCode: '63903' });
    expect(res.statusCode).toBe(200);
    expect(await messagesById(t.deps.database, [id])).toEqual([
      expect.objectContaining({ status: 'failed', failure_reason: 'UserInBlackList', provider_status: 'Failed' }),
    ]);
  });

  it('records a Rejected report without a reason as a failure named by the status', async () => {
    const { id, providerId } = await sentMessage('254712300003');
    await postReport({ id: providerId, status: 'Rejected' });
    expect(await messagesById(t.deps.database, [id])).toEqual([
      expect.objectContaining({ status: 'failed', failure_reason: 'Rejected' }),
    ]);
  });

  it('keeps a message sent on an intermediate report and notes what the gateway said', async () => {
    const { id, providerId } = await sentMessage('254712300004');
    await postReport({ id: providerId, status: 'Buffered' });
    expect(await messagesById(t.deps.database, [id])).toEqual([
      expect.objectContaining({ status: 'sent', provider_status: 'Buffered', failure_reason: null }),
    ]);
  });

  it('does not undo a delivered message with a late intermediate report', async () => {
    const { id, providerId } = await sentMessage('254712300005');
    await postReport({ id: providerId, status: 'Success' });
    await postReport({ id: providerId, status: 'Sent' });
    expect(await messagesById(t.deps.database, [id])).toEqual([
      expect.objectContaining({ status: 'delivered', provider_status: 'Success' }),
    ]);
  });

  it('acknowledges a report for an unknown id', async () => {
    const res = await postReport({ id: 'ATXid_unknown', status: 'Success' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Delivery report received' });
  });

  it('answers 404 to a wrong secret, whatever the body', async () => {
    const res = await postReport({ id: 'x', status: 'Success' }, '/api/hooks/sms/delivery/not-the-secret-000000');
    expect(res.statusCode).toBe(404);
    expect((await postReport({}, '/api/hooks/sms/delivery/nope')).statusCode).toBe(404);
  });

  it('refuses a report without an id, naming the field', async () => {
    const res = await postReport({ status: 'Success' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ id: ['The message id is required'] });
  });
});
