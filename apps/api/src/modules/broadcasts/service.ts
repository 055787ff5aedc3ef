import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { centsToKes, formatCents, kesToCents, smsParts, smsSelfServiceTexts, type Broadcast, type BroadcastAudience, type PageQuery } from '@betdesk/contract';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { betCategories, broadcasts, clients, smsMessages, subscriptions, tipsSubscribers, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import { QUEUES } from '../../jobs/jobs.ts';
import { audit } from '../audit/service.ts';
import { getSetting } from '../settings/service.ts';
import { consentedSql, erasedSql, optedOutSql, queueSmsFanout, promotionalWindow, windowAt, withOptOutText } from '../sms/service.ts';

export const BROADCAST_INTENT = 'broadcast';

type Audience = z.output<typeof BroadcastAudience>;

/**
 * The segment as one recipients query (a phone per row, with the person's id): the fan-out inserts
 * from it in one INSERT ... SELECT, however many people it holds.
 */
function recipientsOf(a: Audience): { query: SQL; are: 'subscribers' | 'clients' } {
  switch (a.segment) {
    case 'category-active':
      return {
        are: 'subscribers',
        query: sql`select distinct on (s.phone) s.phone, s.id as subscriber_id
                     from ${subscriptions} sub join ${tipsSubscribers} s on s.id = sub.subscriber_id
                    where sub.bet_category_id = ${a.bet_category_id!} and sub.expires_at > now()
                    order by s.phone`,
      };
    case 'category-lapsed':
      return {
        are: 'subscribers',
        query: sql`select distinct on (s.phone) s.phone, s.id as subscriber_id
                     from ${subscriptions} sub join ${tipsSubscribers} s on s.id = sub.subscriber_id
                    where sub.bet_category_id = ${a.bet_category_id!}
                      and sub.expires_at <= now() and sub.expires_at > now() - make_interval(days => ${a.lapsed_days!})
                      and not exists (select 1 from ${subscriptions} cur
                                       where cur.subscriber_id = s.id and cur.bet_category_id = sub.bet_category_id
                                         and cur.expires_at > now())
                    order by s.phone`,
      };
    case 'clients-all':
      return {
        are: 'clients',
        query: sql`select distinct on (c.phone) c.phone, c.id as client_id
                     from ${clients} c where c.deleted_at is null order by c.phone`,
      };
    case 'clients-active':
      return {
        are: 'clients',
        query: sql`select distinct on (c.phone) c.phone, c.id as client_id
                     from ${clients} c
                    where c.deleted_at is null
                      and exists (select 1 from ${subscriptions} sub where sub.client_id = c.id and sub.expires_at > now())
                    order by c.phone`,
      };
  }
}

/** Who would receive it (after opt-outs, Do Not Disturb included: a broadcast is promotional), its parts and estimated cost, and whether it would be held. */
export async function previewBroadcast(deps: AppDeps, audience: Audience, now = new Date()) {
  const { query } = recipientsOf(audience);
  // Each person is counted once, under the first reason that leaves them out.
  const [counted] = await rows<{ everyone: number; opted_out: number; no_consent: number }>(
    deps.db,
    sql`select count(*)::int as everyone,
               count(*) filter (where ${optedOutSql(sql`r.phone`, null, true)} or ${erasedSql(sql`r.phone`)})::int as opted_out,
               count(*) filter (where not ${optedOutSql(sql`r.phone`, null, true)} and not ${erasedSql(sql`r.phone`)}
                                  and not ${consentedSql(sql`r.phone`)})::int as no_consent
          from (${query}) r`,
  );
  const recipients = (counted?.everyone ?? 0) - (counted?.opted_out ?? 0) - (counted?.no_consent ?? 0);
  const message = await withOptOutText(deps.db, audience.message);
  const parts = smsParts(message);
  const { costCents, limitCents } = await broadcastCost(deps.db, recipients, parts);
  const window = windowAt(now, await promotionalWindow(deps.db));
  return {
    recipients,
    opted_out: counted?.opted_out ?? 0,
    no_consent: counted?.no_consent ?? 0,
    message,
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
  return { costCents: recipients * parts * perPartCents, limitCents: limitKes * 100 };
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
 * the window they wait for it.
 */
export async function sendBroadcast(
  deps: AppDeps,
  actor: Actor,
  body: Audience & { idempotency_key: string; confirmed_cost?: number },
  requestId: string,
  now = new Date(),
): Promise<{ info: string; broadcast: Broadcast }> {
  const result = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(broadcasts)
      .values({
        idempotencyKey: body.idempotency_key,
        segment: body.segment,
        betCategoryId: body.segment.startsWith('category') ? body.bet_category_id! : null,
        lapsedDays: body.segment === 'category-lapsed' ? body.lapsed_days! : null,
        body: body.message,
        recipients: 0,
        createdBy: actor.userId,
      })
      .onConflictDoNothing({ target: broadcasts.idempotencyKey })
      .returning({ id: broadcasts.id });
    if (!created) {
      const [existing] = await rows<{ id: number }>(tx, sql`select id from ${broadcasts} where idempotency_key = ${body.idempotency_key}`);
      return { id: Number(existing!.id), queued: 0, again: true };
    }
    const { query, are } = recipientsOf(body);
    const queued = await queueSmsFanout(tx, {
      intent: BROADCAST_INTENT,
      dedupeKeyPrefix: `${BROADCAST_INTENT}:${created.id}`,
      body: body.message,
      recipients: query,
      recipientsAre: are,
      createdBy: actor.userId,
      smsClass: 'promotional',
      broadcastId: created.id,
      now,
    });
    if (queued === 0) throw fieldError('segment', smsSelfServiceTexts.noRecipients);
    await requireConfirmedCost(tx, queued, body.message, body.confirmed_cost);
    await tx.update(broadcasts).set({ recipients: queued }).where(sql`${broadcasts.id} = ${created.id}`);
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'broadcast.send',
      entity: 'broadcast',
      entityId: created.id,
      after: { segment: body.segment, bet_category_id: body.bet_category_id ?? null, lapsed_days: body.lapsed_days ?? null, message: body.message, recipients: queued },
      requestId,
    });
    return { id: created.id, queued, again: false };
  });
  if (result.queued > 0) await deps.jobs.nudge(QUEUES.smsDispatch);
  const [broadcast] = await broadcastsWhere(deps.db, sql`b.id = ${result.id}`, { limit: 1, offset: 0 });
  return {
    info: result.again ? smsSelfServiceTexts.broadcastAlreadyQueued : smsSelfServiceTexts.broadcastQueued,
    broadcast: broadcast!.broadcast,
  };
}

interface BroadcastRow {
  id: number;
  segment: string;
  bet_category: string | null;
  lapsed_days: number | null;
  body: string;
  recipients: number;
  created_by: string | null;
  created_at: string;
  queued: number;
  held: number;
  sent: number;
  delivered: number;
  failed: number;
  total_records?: string;
}

/** Broadcasts with their counts: each count reads that broadcast's rows through sms_broadcast_idx. */
async function broadcastsWhere(db: Queryable, where: SQL, page: { limit: number; offset: number }) {
  const { found, total } = await pageWithTotal<BroadcastRow>(
    db,
    {
      query: sql`select b.id, b.segment, bc.name as bet_category, b.lapsed_days, b.body, b.recipients, u.name as created_by,
                        b.created_at, d.*, count(*) over() as total_records
                   from ${broadcasts} b
                   left join ${betCategories} bc on bc.id = b.bet_category_id
                   left join ${users} u on u.id = b.created_by
                   cross join lateral (
                     select count(*) filter (where m.status in ('queued', 'sending') and m.next_attempt_at <= now())::int as queued,
                            count(*) filter (where m.status = 'queued' and m.next_attempt_at > now())::int as held,
                            count(*) filter (where m.status in ('sent', 'unconfirmed'))::int as sent,
                            count(*) filter (where m.status = 'delivered')::int as delivered,
                            count(*) filter (where m.status = 'failed')::int as failed
                       from ${smsMessages} m where m.broadcast_id = b.id
                   ) d
                  where ${where}
                  order by b.id desc
                  limit ${page.limit} offset ${page.offset}`,
      offset: page.offset,
    },
    sql`select count(*) as total from ${broadcasts} b where ${where}`,
  );
  return found.map((r) => ({
    total,
    broadcast: {
      id: Number(r.id),
      segment: r.segment,
      bet_category: r.bet_category,
      lapsed_days: r.lapsed_days,
      message: r.body,
      recipients: Number(r.recipients),
      created_by: r.created_by,
      created_on: new Date(r.created_at).toISOString(),
      counts: { queued: r.queued, held: r.held, sent: r.sent, delivered: r.delivered, failed: r.failed },
    },
  }));
}

export async function broadcastPage(db: Queryable, query: PageQuery) {
  const offset = (query.page - 1) * query.perPage;
  const found = await broadcastsWhere(db, sql`true`, { limit: query.perPage, offset });
  const total = found[0]?.total ?? (offset === 0 ? 0 : Number((await rows<{ n: number }>(db, sql`select count(*)::int as n from ${broadcasts}`))[0]?.n ?? 0));
  return { total_records: total, broadcasts: found.map((f) => f.broadcast) };
}
