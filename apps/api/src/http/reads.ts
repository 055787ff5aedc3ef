import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import type { ReadRouting } from '../db/replica.ts';
import type { AppDeps } from '../deps.ts';

const METHODS_THAT_READ = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The replica's routing for every request (decision 073). A staff session's reads go where
 * `routing.choose` says, given the session's last write; after a successful non-GET request of a
 * session, the primary's WAL position is stored with the session (`noteWrite`, the auth module's),
 * before the answer leaves, so the session's next request, on whichever process, reads its writes.
 * Without a replica nothing is installed but the decoration: reads stay on the primary.
 */
export function installReadRouting(
  app: FastifyInstance,
  routing: ReadRouting | null | undefined,
  noteWrite: (sessionId: number, lsn: string) => Promise<void>,
): void {
  app.decorateRequest('readDatabase', null);
  if (!routing) return;
  app.addHook('onRequest', async (request) => {
    let chosen: Promise<Database> | null = null;
    request.readDatabase = () => {
      chosen ??= routing.choose(request.actor?.lastWriteLsn).then(({ database }) => database);
      return chosen;
    };
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (METHODS_THAT_READ.has(request.method) || reply.statusCode >= 400 || !request.actor) return payload;
    try {
      await noteWrite(request.actor.sessionId, await routing.primaryLsn());
    } catch (error) {
      // The write itself is done; a session not marked may read its own write late, never wrongly.
      request.log.warn({ err: error }, 'read routing: the session write position was not stored');
    }
    return payload;
  });
}

/**
 * The deps a reading service runs with: `db` and `database` on the replica when the request's
 * routing chose it, else `deps` itself. Only for services that do not write.
 */
export async function readDeps(deps: AppDeps, request: FastifyRequest): Promise<AppDeps> {
  const database = request.readDatabase ? await request.readDatabase() : deps.database;
  return database === deps.database ? deps : { ...deps, database, db: database.db };
}
