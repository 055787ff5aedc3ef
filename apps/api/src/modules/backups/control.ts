import { existsSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';

/**
 * The embedded database is one process's: while the server holds DATA_DIR, `npm run backup` asks
 * it over a Unix socket in DATA_DIR (reachable only by who may read the data directory) instead of
 * opening the database a second time. Decision 023.
 */
export function controlSocketPath(dataDir: string): string {
  return join(dataDir, 'backup.sock');
}

/** Listens on DATA_DIR's socket; each request runs `backup` (the service's runBackup, given by it). */
export async function listenForBackups(
  dataDir: string,
  backup: (outDir: string | undefined) => Promise<object>,
): Promise<() => Promise<void>> {
  const path = controlSocketPath(dataDir);
  if (existsSync(path)) rmSync(path, { force: true });
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/backup')) {
      res.writeHead(404).end();
      return;
    }
    const out = new URL(req.url, 'http://local').searchParams.get('out') ?? undefined;
    backup(out).then(
      (made) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(made)),
      (error: unknown) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message })),
    );
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolvePromise());
  });
  server.unref();
  return () =>
    new Promise<void>((resolvePromise) => {
      server.close(() => resolvePromise());
      rmSync(path, { force: true });
    });
}

/** Asks a running server for a backup; null when no server listens on DATA_DIR's socket. */
export function backupThroughServer<Made extends object>(dataDir: string, outDir: string | undefined): Promise<Made | null> {
  const socketPath = controlSocketPath(dataDir);
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolvePromise, reject) => {
    const req = request(
      { socketPath, method: 'POST', path: `/backup${outDir ? `?out=${encodeURIComponent(outDir)}` : ''}` },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          const parsed = JSON.parse(body) as Made & { error?: string };
          if (res.statusCode === 200) resolvePromise(parsed);
          else reject(new Error(parsed.error ?? `the server answered ${res.statusCode}`));
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A socket left by a server that died: nobody holds the data directory.
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolvePromise(null);
      else reject(error);
    });
    req.end();
  });
}
