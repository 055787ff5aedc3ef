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

/** The least time between two NOTIFY statements of one process's committed announcements (`announceCommitted`). */
export const NOTICE_GAP_MS = 20;

/** The announcements waiting to be sent outside a transaction, per database. */
const waiting = new WeakMap<Db, { payloads: string[]; sent: Promise<void> }>();
/** The last statement of announcements per database: when it began (once it has), and its end. */
const lastSend = new WeakMap<Db, { began: number; sent: Promise<void> }>();

/**
 * Announces a change that has already committed (outside any transaction), e.g. the money a webhook
 * stored (decision 044: a NOTIFY in the payment's transaction would serialise its commit). The
 * announcements of concurrent requests share one statement (decision 053): one goes at once when
 * the process has sent none for `NOTICE_GAP_MS`; otherwise it waits, with every one made
 * meanwhile, for the last statement to end and for that gap after it began, so that a burst of
 * payments costs about 50 NOTIFY statements a second instead of one each. The statements leave one
 * after another, in the order of the announcements. Resolves once this one is sent. The same event
 * twice in one statement would reach the screens once (PostgreSQL folds identical notifications of
 * a transaction): events carry their ids.
 */
export function announceCommitted(db: Db, event: LiveEvent, staffUserId: number | null = null): Promise<void> {
  const announcement: Announcement = { event, staffUserId };
  let batch = waiting.get(db);
  if (!batch) {
    const payloads: string[] = [];
    const before = lastSend.get(db);
    const send = { began: Infinity, sent: Promise.resolve() };
    send.sent = (before?.sent ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const wait = (before?.began ?? -Infinity) + NOTICE_GAP_MS - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        waiting.delete(db);
        send.began = Date.now();
        await notifyAll(db, EVENTS_CHANNEL, payloads);
      });
    batch = { payloads, sent: send.sent };
    waiting.set(db, batch);
    lastSend.set(db, send);
  }
  batch.payloads.push(JSON.stringify(announcement));
  return batch.sent;
}

/** Admins see everything; a staff member sees the bets of the clients assigned to them. */
export function visibleTo(viewer: { role: 'admin' | 'staff'; userId: number }, a: Announcement): boolean {
  if (viewer.role === 'admin') return true;
  return a.event.type.startsWith('bet.') && a.staffUserId === viewer.userId;
}
