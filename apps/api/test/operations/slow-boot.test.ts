import { afterEach, expect, it, vi } from 'vitest';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { createFastify } from '../../src/http/fastify.ts';

/**
 * A slow start is slow, never fatal: on a machine with a load of 10 on two cores the API docs'
 * plugin (@fastify/swagger-ui, which reads its static files) took longer than Fastify's 10-second
 * plugin timer, and the server died at boot ("Plugin did not start in time"). Here that plugin
 * waits for the test, and the clock's timers run a minute ahead while it waits.
 */
let release!: () => void;
const loaded = new Promise<void>((resolve) => (release = resolve));

vi.mock('@fastify/swagger-ui', async (importOriginal) => {
  const real = (await importOriginal<{ default: FastifyPluginAsync<Record<string, unknown>> }>()).default;
  const slow: FastifyPluginAsync<Record<string, unknown>> = async (app, options) => {
    await loaded;
    await real(app, options);
  };
  return { default: slow };
});

afterEach(() => {
  vi.useRealTimers();
});

it('boots when a plugin takes longer than a minute to load', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let failed: unknown = null;
  let app: FastifyInstance | null = null;
  const booting = createFastify(false, undefined).then(
    (built) => (app = built),
    (error: unknown) => (failed = error),
  );
  await vi.advanceTimersByTimeAsync(60_000);
  expect(failed).toBeNull();
  release();
  vi.useRealTimers();
  await booting;
  expect(failed).toBeNull();
  const started = app as FastifyInstance | null;
  expect(started).not.toBeNull();
  await started!.ready();
  const docs = await started!.inject({ method: 'GET', url: '/api/docs/json' });
  expect(docs.statusCode).toBe(200);
  expect(docs.json().info.title).toBe('Betdesk API');
  await started!.close();
});
