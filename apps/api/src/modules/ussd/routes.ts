import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ussdHook, ussdSessionEndHook, type Endpoint } from '@betdesk/contract';
import { ZodError } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { isWebhookSecret } from '../sms/service.ts';
import { answerUssd, receiveSessionEnd } from './service.ts';

/** Africa's Talking reads the answer as plain text; anything else (a JSON string) would end the session. */
function textHook(
  app: FastifyInstance,
  deps: AppDeps,
  endpoint: Endpoint,
  answer: (request: FastifyRequest) => Promise<string>,
): void {
  app.route({
    method: 'POST',
    url: endpoint.path,
    schema: { summary: endpoint.summary, tags: [endpoint.tag], produces: ['text/plain'] },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { secret } = request.params as { secret: string };
      if (!isWebhookSecret(deps, secret)) throw notFound();
      return reply.type('text/plain; charset=utf-8').send(await answer(request));
    },
  });
}

/** A notification posted to the menu's own URL (a dashboard with one URL for both) has a status and no text. */
const isSessionEnd = (body: unknown) =>
  typeof body === 'object' && body !== null && 'status' in body && !('text' in body);

export function ussdRoutes(app: FastifyInstance, deps: AppDeps): void {
  textHook(app, deps, ussdHook, async (request) => {
    if (isSessionEnd(request.body)) {
      receiveSessionEnd(request.body, request.log);
      return 'OK';
    }
    try {
      return await answerUssd(deps, request.body, request.id);
    } catch (error) {
      if (error instanceof ZodError) throw error; // not Africa's Talking's shape: 422 naming the field
      // The phone shows the END text; a 500 would show the network's own error instead.
      // A failed query's message carries its parameters (phones): only the kind of error is logged.
      const cause = (error as { cause?: { code?: string } }).cause;
      request.log.error({ error: { type: (error as Error).name, code: cause?.code } }, 'USSD step failed');
      return 'END Sorry, something went wrong. Please try again later.';
    }
  });
  textHook(app, deps, ussdSessionEndHook, async (request) => {
    receiveSessionEnd(request.body, request.log);
    return 'OK';
  });
}
