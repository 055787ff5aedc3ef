import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ussdHook, ussdSessionEndHook, type Endpoint } from '@betdesk/contract';
import { ZodError } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { isWebhookSecret } from '../sms/service.ts';
import { answerUssd, receiveSessionEnd } from './service.ts';

const UNREADABLE = 'END Sorry, we could not read that. Please dial again.';

/** Africa's Talking reads the answer as plain text; anything else (a JSON string) would end the session. */
function textHook(
  app: FastifyInstance,
  deps: AppDeps,
  endpoint: Endpoint,
  answer: (request: FastifyRequest) => Promise<string>,
  unreadable?: string,
): void {
  app.route({
    method: 'POST',
    url: endpoint.path,
    schema: { summary: endpoint.summary, tags: [endpoint.tag], produces: ['text/plain'] },
    // A body the server cannot even parse (a wrong content type, too large) is still a screen; a
    // wrong secret stays a 404 (the app's own error handler answers it).
    ...(unreadable
      ? {
          errorHandler(error: Error, request: FastifyRequest, reply: FastifyReply) {
            if (error instanceof AppError) throw error;
            request.log.warn({ error: { type: error.name, code: (error as { code?: string }).code } }, 'USSD request not understood');
            return reply.code(200).type('text/plain; charset=utf-8').send(unreadable);
          },
        }
      : {}),
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
      // Every answer is a screen: a JSON 422 would show the network's own error on the phone. What
      // was wrong is logged by field name (the values may hold a phone number).
      if (error instanceof ZodError) {
        request.log.warn({ fields: error.issues.map((i) => i.path.join('.')) }, 'USSD request not understood');
        return UNREADABLE;
      }
      // The phone shows the END text; a 500 would show the network's own error instead.
      // A failed query's message carries its parameters (phones): only the kind of error is logged.
      const cause = (error as { cause?: { code?: string } }).cause;
      request.log.error({ error: { type: (error as Error).name, code: cause?.code } }, 'USSD step failed');
      return 'END Sorry, something went wrong. Please try again later.';
    }
  }, UNREADABLE);
  textHook(app, deps, ussdSessionEndHook, async (request) => {
    receiveSessionEnd(request.body, request.log);
    return 'OK';
  });
}
