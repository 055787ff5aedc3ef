import type { LiveEvent } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { Db } from '../../db/client.ts';
import { notify, notifyAll } from './queries.ts';

export const EVENTS_CHANNEL = 'betdesk_events';

/** An event and who besides the admins may see it: the staff member the client is assigned to. */
export interface Announcement {
  event: LiveEvent;
  staffUserId: number | null;
}

/**
 * Announces a change to the live screens. Call it inside the transaction that makes the change:
 * NOTIFY is delivered only when that transaction commits (to every API process listening on this
 * database, PGlite's single process included), so nothing that rolls back is ever announced.
 */
export async function announce(db: Queryable, event: LiveEvent, staffUserId: number | null = null): Promise<void> {
  const announcement: Announcement = { event, staffUserId };
  await notify(db, EVENTS_CHANNEL, JSON.stringify(announcement));
}

/** The announcements waiting to be sent outside a transaction, per database, and the send before them. */
const waiting = new WeakMap<Db, { payloads: string[]; sent: Promise<void> }>();
const sending = new WeakMap<Db, Promise<void>>();

/**
 * Announces a change that has already committed (outside any transaction), e.g. the money a webhook
 * stored (decision 044: a NOTIFY in the payment's transaction would serialise its commit). The
 * announcements of concurrent requests share one statement: while one is being sent, the next ones
 * wait together and leave in the next, so a burst of payments costs a few NOTIFY statements instead
 * of one each. Resolves once this one is sent. The same event twice in one statement would reach the
 * screens once (PostgreSQL folds identical notifications of a transaction): events carry their ids.
 */
export function announceCommitted(db: Db, event: LiveEvent, staffUserId: number | null = null): Promise<void> {
  const announcement: Announcement = { event, staffUserId };
  let batch = waiting.get(db);
  if (!batch) {
    const payloads: string[] = [];
    const before = sending.get(db) ?? Promise.resolve();
    const sent = before
      .catch(() => undefined)
      .then(() => {
        waiting.delete(db);
        return notifyAll(db, EVENTS_CHANNEL, payloads);
      });
    batch = { payloads, sent };
    waiting.set(db, batch);
    sending.set(db, sent);
  }
  batch.payloads.push(JSON.stringify(announcement));
  return batch.sent;
}

/** Admins see everything; a staff member sees the bets of the clients assigned to them. */
export function visibleTo(viewer: { role: 'admin' | 'staff'; userId: number }, a: Announcement): boolean {
  if (viewer.role === 'admin') return true;
  return a.event.type.startsWith('bet.') && a.staffUserId === viewer.userId;
}
