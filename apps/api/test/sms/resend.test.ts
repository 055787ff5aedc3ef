import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { SmsMessageDetail, smsResendTexts } from '@betdesk/contract';
import { auditLog, smsMessages } from '../../src/db/schema/index.ts';
import { QUEUES } from '../../src/jobs/jobs.ts';
import { dispatchQueuedSms, queueSms } from '../../src/modules/sms/outbox.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let admin: string;
let staff: string;
let adminId: number;
/** Rows queued when each nudge came: the nudge must come after the commit. */
const nudges: { queue: string; queued: number }[] = [];

async function message(dedupeKey: string, status: 'failed' | 'unconfirmed' | 'sent' | 'delivered' | 'queued', intent = 'client.message') {
  const id = (await queueSms(t.deps.db, { intent, dedupeKey, to: '254712000301', body: `Hello ${dedupeKey}`, createdBy: null }))!;
  await t.deps.db
    .update(smsMessages)
    .set({ status, failureReason: status === 'failed' ? 'InvalidPhoneNumber' : null, attempts: 1 })
    .where(eq(smsMessages.id, id));
  return id;
}

const resend = (token: string | null, id: number) => t.as(token, { method: 'POST', url: '/api/sms/resend', payload: { id } });
const resendsOf = (id: number) => t.deps.db.select().from(smsMessages).where(eq(smsMessages.resentFromId, id));

beforeAll(async () => {
  t = await createTestApp();
  adminId = await t.addUser({ email: 'admin@betdesk.test', categoryId: ADMIN, name: 'Admin Achieng' });
  await t.addUser({ email: 'wanjiku@betdesk.test' });
  admin = await t.tokenFor('admin@betdesk.test');
  staff = await t.tokenFor('wanjiku@betdesk.test');
  t.deps.jobs = {
    async nudge(queue: string) {
      const queued = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.status, 'queued'));
      nudges.push({ queue, queued: queued.length });
    },
    async stop() {},
  };
});
afterAll(() => t.close());

describe('POST /api/sms/resend', () => {
  it('queues a failed message again as exactly one new, linked row, audited, and nudges the dispatcher', async () => {
    const original = await message('r-failed', 'failed');
    const res = await resend(admin, original);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.info).toBe(smsResendTexts.queued);
    expect(Object.keys(body.sms).sort()).toEqual(Object.keys(SmsMessageDetail.shape).sort());
    expect(body.sms).toMatchObject({
      status: 'queued',
      message: 'Hello r-failed',
      phone: '0712000301',
      intent: 'client.message',
      resent_from_id: original,
      resent_as_ids: [],
      created_by: 'Admin Achieng',
      attempts: 0,
    });
    const copies = await resendsOf(original);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ id: body.sms.id, status: 'queued', body: 'Hello r-failed', dedupeKey: 'r-failed:resend:1', createdBy: adminId });
    // The original keeps its fate and shows the link.
    const detail = (await t.as(admin, { method: 'GET', url: `/api/sms/log/show?id=${original}` })).json().message;
    expect(detail).toMatchObject({ status: 'failed', resent_from_id: null, resent_as_ids: [body.sms.id] });
    const audits = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sms.resend'), eq(auditLog.entityId, String(original))));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorUserId: adminId, entity: 'sms_message', after: { resent_as_id: body.sms.id, status: 'queued' } });
    expect(nudges.at(-1)).toEqual({ queue: QUEUES.smsDispatch, queued: 1 });
  });

  it('answers 409 to a second resend while the first is queued, sending or sent, and allows one after it failed', async () => {
    const original = await message('r-twice', 'failed');
    expect((await resend(admin, original)).statusCode).toBe(200);
    const second = await resend(admin, original);
    expect(second.statusCode).toBe(409);
    expect(second.json().info).toBe(smsResendTexts.alreadyResent);
    const [first] = await resendsOf(original);
    for (const status of ['sending', 'sent', 'delivered'] as const) {
      await t.deps.db.update(smsMessages).set({ status }).where(eq(smsMessages.id, first!.id));
      expect((await resend(admin, original)).statusCode).toBe(409);
    }
    expect(await resendsOf(original)).toHaveLength(1);
    // The resend failed too: the original may be sent once more, under the next counter.
    await t.deps.db.update(smsMessages).set({ status: 'failed' }).where(eq(smsMessages.id, first!.id));
    expect((await resend(admin, original)).statusCode).toBe(200);
    expect((await resendsOf(original)).map((r) => r.dedupeKey).sort()).toEqual(['r-twice:resend:1', 'r-twice:resend:2']);
  });

  it('queues one row when two resends of the same message arrive at once', async () => {
    const original = await message('r-race', 'unconfirmed');
    const answers = await Promise.all([resend(admin, original), resend(admin, original)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await resendsOf(original)).toHaveLength(1);
  });

  it('queues an unconfirmed message again, and the dispatcher sends the new row once', async () => {
    const original = await message('r-unconfirmed', 'unconfirmed');
    const res = await resend(admin, original);
    expect(res.statusCode).toBe(200);
    expect(await resendsOf(original)).toHaveLength(1);
    await dispatchQueuedSms(t.deps.database, t.deps.sms);
    const [copy] = await resendsOf(original);
    expect(copy!.status).toBe('sent');
    const [still] = await t.deps.db.select().from(smsMessages).where(eq(smsMessages.id, original));
    expect(still!.status).toBe('unconfirmed');
  });

  it('answers 409 for a message that is queued, sent or delivered', async () => {
    for (const status of ['queued', 'sent', 'delivered'] as const) {
      const id = await message(`r-${status}`, status);
      const res = await resend(admin, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().info).toBe(smsResendTexts.notResendable);
      expect(await resendsOf(id)).toHaveLength(0);
    }
  });

  it('never resends a temporary password: 409 saying to issue a new password', async () => {
    const id = await message('r-password', 'failed', 'user.temporary-password');
    const res = await resend(admin, id);
    expect(res.statusCode).toBe(409);
    expect(res.json().info).toBe(smsResendTexts.temporaryPassword);
    expect(res.json().info).toMatch(/new password/);
    expect(await resendsOf(id)).toHaveLength(0);
  });

  it('never resends a portal sign-in code: 409 saying the subscriber asks for a new code', async () => {
    const id = await message('r-code', 'failed', 'portal.sign-in-code');
    const res = await resend(admin, id);
    expect(res.statusCode).toBe(409);
    expect(res.json().info).toBe(smsResendTexts.signInCode);
    expect(res.json().info).not.toMatch(/password/);
    expect(await resendsOf(id)).toHaveLength(0);
  });

  it('is for admins only: staff 403, anonymous 401, unknown id 404', async () => {
    const id = await message('r-guard', 'failed');
    expect((await resend(staff, id)).statusCode).toBe(403);
    expect((await resend(null, id)).statusCode).toBe(401);
    expect((await resend(admin, 999_999)).statusCode).toBe(404);
    expect(await resendsOf(id)).toHaveLength(0);
  });
});
