import { randomUUID } from 'node:crypto';
import { privacyTexts, successTexts, type ClientMessage } from '@betdesk/contract';
import type { StaffFormAction } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { requireClientFacts } from '../clients/service.ts';
import { isErasedPhone, queueSms } from '../sms/service.ts';

/**
 * The Send Message modal: the text goes to the phone the client has on file (not a number sent by
 * the browser), through the outbox; the dispatcher is nudged after commit.
 */
export const sendClientMessage: StaffFormAction<typeof ClientMessage> = async (deps, actor, input, requestId) => {
  await deps.db.transaction(async (tx) => {
    const client = await requireClientFacts(tx, actor, input.id);
    // The outbox would drop it silently; the sender is told why instead of "sent".
    if (await isErasedPhone(tx, client.phone)) throw fieldError('id', privacyTexts.clientErased);
    await queueSms(tx, {
      intent: 'client.message',
      dedupeKey: `client.message:${client.id}:${requestId}:${randomUUID()}`,
      to: client.phone,
      body: input.message,
      createdBy: actor.userId,
    });
  });
  await deps.jobs.nudge(QUEUES.smsDispatch);
  return { info: successTexts.messageSent };
};
