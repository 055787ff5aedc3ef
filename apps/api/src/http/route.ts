import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { Endpoint } from '@betdesk/contract';
import type { Actor } from './actor.ts';
import { requireAccess } from './guard.ts';

export interface RouteContext<Q extends z.ZodType, B extends z.ZodType> {
  query: z.output<Q>;
  body: z.output<B>;
  /** The signed-in user; every non-public endpoint has one (the guard ran first). */
  actor: Actor;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Registers one endpoint of the contract: its schemas validate the input, serialise the output and
 * feed the OpenAPI document; its `access` is enforced by the one permission guard.
 */
export function route<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  app: FastifyInstance,
  endpoint: Endpoint<Q, B, R>,
  handler: (ctx: RouteContext<Q, B>) => Promise<z.input<R>>,
  options: {
    /** For a file sent as it is stored (already compressed or encrypted). */
    compress?: false;
    /**
     * A provider's server calls it (Daraja, Africa's Talking), never a browser: its small JSON answer
     * goes out without the browser's security headers and without compression, which cost a C2B
     * confirmation more CPU than the answer is worth (decision 048).
     */
    callback?: true;
  } = {},
): void {
  const schema: FastifySchema = {
    summary: endpoint.summary,
      tags: [endpoint.tag],
      ...(endpoint.access === 'public' ? {} : { security: [endpoint.access === 'portal' ? { portalCookie: [] } : { bearer: [] }] }),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: { 200: endpoint.response },
  };
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema,
    ...(options.compress === false || options.callback ? { compress: false as const } : {}),
    ...(options.callback ? { helmet: false as const } : {}),
    // Before validation: who may call comes first (401/403), what they sent second (422).
    preValidation: requireAccess(endpoint.access),
    handler: async (request, reply): Promise<unknown> => {
      const ctx = {
        query: request.query as z.output<Q>,
        body: request.body as z.output<B>,
        get actor(): Actor {
          if (!request.actor) throw new Error(`${endpoint.path} read the actor of a public endpoint`);
          return request.actor;
        },
        request,
        reply,
      };
      return handler(ctx);
    },
  });
}
