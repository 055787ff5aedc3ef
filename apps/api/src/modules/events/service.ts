import type { LiveEvent } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { notify } from './queries.ts';

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

/** Admins see everything; a staff member sees the bets of the clients assigned to them. */
export function visibleTo(viewer: { role: 'admin' | 'staff'; userId: number }, a: Announcement): boolean {
  if (viewer.role === 'admin') return true;
  return a.event.type.startsWith('bet.') && a.staffUserId === viewer.userId;
}
