import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * The embedded database is one process's memory over a data directory: a second process opening
 * the same directory works on its own copy, and what it writes is lost or overwritten (a password
 * reset that never takes). So the process that opens a PGlite data directory holds a lock file
 * beside it (`<dataDir>.lock`, its pid inside) until it closes; another process finds it and refuses.
 * A lock whose process is gone (killed) is taken over.
 */
export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${pid}), most likely the running Betdesk server. ` +
        'Stop the server first and run this again, or use a PostgreSQL DATABASE_URL that both can share.',
    );
    this.name = 'EmbeddedDatabaseBusyError';
  }
}

interface LockContent {
  pid: number;
  since: string;
  command: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(lockPath: string): number | null {
  try {
    const content = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockContent>;
    return Number.isInteger(content.pid) ? content.pid! : null;
  } catch {
    return null;
  }
}

/** Takes the data directory's lock for this process; returns its release. Throws EmbeddedDatabaseBusyError. */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  const lockPath = `${dataDir}.lock`;
  const content: LockContent = { pid: process.pid, since: new Date().toISOString(), command: process.argv.slice(1).join(' ').slice(0, 200) };
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(lockPath, JSON.stringify(content), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(lockPath);
      if (holder !== null && holder !== process.pid && isAlive(holder)) throw new EmbeddedDatabaseBusyError(dataDir, holder);
      if (attempt > 0) throw new EmbeddedDatabaseBusyError(dataDir, holder ?? 0);
      // Left by a process that is gone (or by this one): take it over.
      unlinkSync(lockPath);
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    if (holderOf(lockPath) === process.pid) unlinkSync(lockPath);
  };
  // A process that exits without closing the database (process.exit) leaves no lock behind.
  process.once('exit', release);
  return release;
}
