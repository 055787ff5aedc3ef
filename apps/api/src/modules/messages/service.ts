import { randomUUID } from 'node:crypto';
import { privacyTexts, successTexts, type ClientMessage } from '@betdesk/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { requireClientFacts } from '../clients/service.ts';
import { isErasedPhone, queueSms } from '../sms/service.ts';

/**
 * The Send Message modal: the text goes to the phone the client has on file (not a number sent by
 * the browser), through the outbox; the dispatcher is nudged after commit.
 */
export async function sendClientMessage(
  deps: AppDeps,
  actor: Actor,
  input: z.output<typeof ClientMessage>,
  requestId: string,
): Promise<{ info: string }> {
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
}
