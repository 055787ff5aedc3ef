import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from './errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A callback's secret path segment, compared in constant time; a wrong one is a plain 404. */
export function requireWebhookSecret(request: FastifyRequest, secret: string): void {
  const given = (request.params as { secret?: string }).secret ?? '';
  if (!timingSafeEqual(digest(given), digest(secret))) throw notFound();
}

/**
 * For callbacks that acknowledge every body, whatever its content type: JSON is read as such, an
 * empty body or one that is not JSON as `{}`. Call it on the encapsulated instance of the callbacks.
 */
export function readCallbackBodiesAsJson(hooks: FastifyInstance): void {
  hooks.removeAllContentTypeParsers();
  hooks.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(String(body) || '{}'));
    } catch {
      done(null, {});
    }
  });
}
