import type { z } from 'zod';
import { centsToKes, formatCents, kesToCents, smsParts, smsSelfServiceTexts, type Broadcast, type BroadcastAudience, type PageQuery } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit, byStaff } from '../audit/service.ts';
import * as q from './queries.ts';
import { checkAdvert, refuse } from '../advert-rules/service.ts';
import { getSetting } from '../settings/service.ts';
import { queueSmsFanout, promotionalWindow, windowAt, withOptOutText } from '../sms/service.ts';

export const BROADCAST_INTENT = 'broadcast';

type Audience = z.output<typeof BroadcastAudience>;

/**
 * A broadcast's text as it leaves before the opt-out line: with the responsible-gambling lines in its
 * language while `rg_promotion_rules` is on, and the banned claims it holds (decision 061).
 */
async function advertOf(db: Queryable, audience: Pick<Audience, 'message' | 'language'>) {
  const language = audience.language ?? (await getSetting(db, 'customer_language_default'));
  return { language, ...checkAdvert(audience.message, language, await getSetting(db, 'rg_promotion_rules')) };
}

/**
 * Who would receive it (after opt-outs, Do Not Disturb included: a broadcast is promotional), the text
 * as it leaves (responsible-gambling lines and opt-out text added), its parts and estimated cost
 * counted on that text, the banned claims that would refuse it, and whether it would be held.
 */
export async function previewBroadcast(deps: AppDeps, audience: Audience, now = new Date()) {
  const counted = await q.countAudience(deps.db, q.recipientsOf(audience).query);
  const recipients = counted.everyone - counted.optedOut - counted.selfExcluded - counted.noConsent;
  const advert = await advertOf(deps.db, audience);
  const message = await withOptOutText(deps.db, advert.body);
  const parts = smsParts(message);
  const { costCents, limitCents } = await broadcastCost(deps.db, recipients, parts);
  const window = windowAt(now, await promotionalWindow(deps.db));
  return {
    recipients,
    opted_out: counted.optedOut,
    self_excluded: counted.selfExcluded,
    no_consent: counted.noConsent,
    message,
    blocked: advert.blocked,
    appended: advert.appended,
    parts,
    estimated_parts: parts * recipients,
    estimated_cost: centsToKes(costCents),
    held_until: window.open ? null : window.opensAt.toISOString(),
    cost_limit: centsToKes(limitCents),
    needs_confirmation: costCents > limitCents,
  };
}

/** A broadcast's estimated cost (recipients × parts × cost of a part) and the limit above which it is confirmed, in cents. */
async function broadcastCost(db: Queryable, recipients: number, parts: number) {
  const perPartCents = await getSetting(db, 'sms_cost_per_part_cents');
  const limitKes = await getSetting(db, 'broadcast_cost_confirm_kes');
  return { costCents: recipients * parts * perPartCents, limitCents: kesToCents(limitKes) };
}

/**
 * Over the limit, the sender must have confirmed at least this cost (the preview's figure): the
 * segment may have grown since, so the count of the queued messages decides. Thrown inside the
 * transaction, it leaves nothing queued and the idempotency key free.
 */
async function requireConfirmedCost(db: Queryable, queued: number, body: string, confirmedKes: number | undefined) {
  const parts = smsParts(await withOptOutText(db, body));
  const { costCents, limitCents } = await broadcastCost(db, queued, parts);
  if (costCents <= limitCents) return;
  if (confirmedKes !== undefined && kesToCents(confirmedKes) >= costCents) return;
  throw new AppError(409, smsSelfServiceTexts.costNotConfirmed(formatCents(costCents), queued, parts, formatCents(limitCents)), {
    code: 'broadcast-cost',
  });
}

/**
 * Queues a broadcast once per idempotency key: the broadcast row is inserted first (unique key), so
 * a double click or a retried request finds it and queues nothing. Its messages are promotional:
 * opted-out phones and people without marketing consent are left out by the fan-out, and outside
 * the window they wait for it. A text holding a banned claim is refused (422 on `message`) and the
 * refusal kept (decision 061); one that passes leaves with its responsible-gambling lines.
 */
export async function sendBroadcast(
  deps: AppDeps,
  actor: Actor,
  body: Audience & { idempotency_key: string; confirmed_cost?: number; approval_reference?: string | undefined },
  requestId: string,
  now = new Date(),
): Promise<{ info: string; broadcast: Broadcast }> {
  const advert = await advertOf(deps.db, body);
  if (advert.blocked.length > 0) {
    await refuse(deps.db, { source: 'broadcast', target: body.segment, language: advert.language, body: body.message, claims: advert.blocked, createdBy: actor.userId }, 'message');
  }
  const result = await deps.db.transaction(async (tx) => {
    const created = await q.insertBroadcastOnce(tx, {
      idempotencyKey: body.idempotency_key,
      segment: body.segment,
      betCategoryId: body.segment.startsWith('category') ? body.bet_category_id! : null,
      lapsedDays: body.segment === 'category-lapsed' ? body.lapsed_days! : null,
      body: advert.body,
      recipients: 0,
      createdBy: actor.userId,
      language: advert.language,
      approvalReference: body.approval_reference ?? null,
    });
    if (created === null) return { id: await q.broadcastIdByKey(tx, body.idempotency_key), queued: 0, again: true };
    const { query, are } = q.recipientsOf(body);
    const queued = await queueSmsFanout(tx, {
      intent: BROADCAST_INTENT,
      dedupeKeyPrefix: `${BROADCAST_INTENT}:${created}`,
      body: advert.body,
      recipients: query,
      recipientsAre: are,
      createdBy: actor.userId,
      smsClass: 'promotional',
      broadcastId: created,
      now,
    });
    if (queued === 0) throw fieldError('segment', smsSelfServiceTexts.noRecipients);
    await requireConfirmedCost(tx, queued, advert.body, body.confirmed_cost);
    await q.setBroadcastRecipients(tx, created, queued);
    await audit(tx, 'broadcast.send', created, byStaff(actor, requestId), {
      after: {
        segment: body.segment,
        bet_category_id: body.bet_category_id ?? null,
        lapsed_days: body.lapsed_days ?? null,
        message: advert.body,
        language: advert.language,
        approval_reference: body.approval_reference ?? null,
        recipients: queued,
      },
    });
    return { id: created, queued, again: false };
  });
  if (result.queued > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  const broadcast = await q.broadcastById(deps.db, result.id);
  return {
    info: result.again ? smsSelfServiceTexts.broadcastAlreadyQueued : smsSelfServiceTexts.broadcastQueued,
    broadcast: broadcast!,
  };
}

export async function broadcastPage(db: Queryable, query: PageQuery) {
  const offset = (query.page - 1) * query.perPage;
  const { total, broadcasts } = await q.findBroadcasts(db, { limit: query.perPage, offset });
  return { total_records: total, broadcasts };
}
