import type { FastifyInstance } from 'fastify';

export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** An open GET /api/events stream, read as a browser's fetch would read it. */
export interface EventStream {
  /** Resolves with the next event of this type (events of other types are skipped). */
  next(type: string): Promise<StreamEvent>;
  /** Every event received so far. */
  seen: StreamEvent[];
  close(): void;
}

/** Starts the app on a free port (once) and opens an event stream with this bearer token. */
export async function openStream(app: FastifyInstance, token: string): Promise<EventStream> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const abort = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}/api/events`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
  const seen: StreamEvent[] = [];
  const waiting: { type: string; from: number; resolve: (e: StreamEvent) => void }[] = [];
  let cursor = 0;
  const deliver = () => {
    for (const w of [...waiting]) {
      const found = seen.findIndex((e, i) => i >= w.from && e.event === w.type);
      if (found >= 0) {
        waiting.splice(waiting.indexOf(w), 1);
        cursor = Math.max(cursor, found + 1);
        w.resolve(seen[found]!);
      }
    }
  };
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) seen.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
        deliver();
      }
    } catch {
      /* aborted by close() */
    }
  })();
  return {
    seen,
    next(type) {
      return new Promise((resolve) => {
        waiting.push({ type, from: cursor, resolve });
        deliver();
      });
    },
    close: () => abort.abort(),
  };
}
