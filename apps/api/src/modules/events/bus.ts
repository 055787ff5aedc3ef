import type { Database } from '../../db/client.ts';
import { EVENTS_CHANNEL, type Announcement } from './service.ts';

/** The one small interface the event stream reads: the same on PostgreSQL and on PGlite. */
export interface EventBus {
  subscribe(listener: (announcement: Announcement) => void): () => void;
  close(): Promise<void>;
}

/**
 * One LISTEN per process and database, shared by every open stream. On PostgreSQL it is a
 * dedicated connection hearing the NOTIFYs of every API process; on PGlite the embedded
 * connection hears its own.
 */
export async function openEventBus(database: Database): Promise<EventBus> {
  const listeners = new Set<(announcement: Announcement) => void>();
  const unlisten = await database.listen(EVENTS_CHANNEL, (payload) => {
    let announcement: Announcement;
    try {
      announcement = JSON.parse(payload) as Announcement;
    } catch {
      return;
    }
    for (const listener of listeners) listener(announcement);
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await unlisten();
    },
  };
}
