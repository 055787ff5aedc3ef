import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/** How long statements may run back to back before the process's pending I/O gets its turn. */
const TURN_MS = 20;

/**
 * PGlite, sharing Node's event loop with the rest of the process (decision 099).
 *
 * PGlite runs each statement synchronously in this thread, and an awaited chain of statements
 * continues through promise callbacks only: while a long one runs (a file import, a seeded test, a
 * restore), Node never reaches the phase that reads sockets and pipes. An HTTP request on the
 * embedded database then waits for the whole chain, and a Vitest worker's report to its runner,
 * answered but unread, trips the runner's fixed 60-second timeout on a loaded machine. So once
 * statements have run for TURN_MS, the next one waits one turn of the event loop (`setImmediate`
 * runs after pending I/O is read). Statements keep their order, and a transaction still holds the
 * one connection throughout: other callers wait on PGlite's own lock, as before.
 */
export class FairPGlite extends PGlite {
  #turnStarted = performance.now();

  static async open(dataDir: string, options: PGliteOptions): Promise<FairPGlite> {
    const client = new FairPGlite(dataDir, options);
    await client.waitReady;
    return client;
  }

  override async execProtocolRaw(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<Uint8Array> {
    if (performance.now() - this.#turnStarted > TURN_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.#turnStarted = performance.now();
    }
    return super.execProtocolRaw(message, options);
  }
}
