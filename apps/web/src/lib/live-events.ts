import { LIVE_READY_EVENT, LiveEvent, liveEvents } from '@betdesk/contract';
import { openStream } from './http.ts';
import { createStore } from './store.ts';

/** Whether the live stream is connected right now (the top bar shows it). */
export const liveConnectedStore = createStore(false);

export interface LiveEventHandlers {
  onEvent: (event: LiveEvent) => void;
  /** The stream is (re)connected; `again` is false on the first connection. */
  onReady: (again: boolean) => void;
}

const MAX_RETRY_MS = 30_000;

/** Splits server-sent event text into complete `event`/`data` blocks; the rest waits for more. */
export function readEventBlocks(buffer: string): { blocks: { event: string; data: string }[]; rest: string } {
  const blocks: { event: string; data: string }[] = [];
  const parts = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = parts.pop() ?? '';
  for (const part of parts) {
    let event = 'message';
    const data: string[] = [];
    for (const line of part.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) blocks.push({ event, data: data.join('\n') });
  }
  return { blocks, rest };
}

/**
 * Keeps a GET /api/events stream open (fetch with the Authorization header, see docs/decisions: "Live events") and
 * reconnects after a drop, waiting 1 s, 2 s, 4 s ... up to 30 s. Answers the function that stops it.
 */
export function connectLiveEvents(handlers: LiveEventHandlers): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let connectedBefore = false;
  let failures = 0;

  const readStream = async (body: ReadableStream<Uint8Array>) => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const { blocks, rest } = readEventBlocks(buffer + decoder.decode(value, { stream: true }));
      buffer = rest;
      for (const block of blocks) {
        if (block.event === LIVE_READY_EVENT) {
          failures = 0;
          liveConnectedStore.set(true);
          handlers.onReady(connectedBefore);
          connectedBefore = true;
          continue;
        }
        const parsed = LiveEvent.safeParse(JSON.parse(block.data));
        if (parsed.success) handlers.onEvent(parsed.data);
      }
    }
  };

  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const response = await openStream(liveEvents.path, controller.signal);
        if (response.ok && response.body) await readStream(response.body);
      } catch {
        // dropped or refused: wait, then reconnect
      }
      liveConnectedStore.set(false);
      if (stopped) return;
      failures += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1))));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller?.abort();
    liveConnectedStore.set(false);
  };
}
