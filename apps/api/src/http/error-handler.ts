import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { statusTexts, type ErrorBody } from '@betdesk/contract';
import { isDatabaseUnavailable } from '../db/client.ts';
import { AppError, type FieldErrors } from './errors.ts';

function defaultText(status: number): string {
  return (statusTexts as Record<number, string>)[status] ?? 'The request could not be processed.';
}

/**
 * Field errors keyed by the form field (the first path segment, as spec 5 names them); a nested
 * issue is also kept under its full path (`posts.2.content`) for forms with repeated inputs.
 */
function fieldErrorsOf(issues: { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.path.filter((p) => typeof p !== 'symbol').map(String);
    const field = path[0] ?? 'body';
    if (!errors[field]?.includes(issue.message)) (errors[field] ??= []).push(issue.message);
    if (path.length > 1) (errors[path.join('.')] ??= []).push(issue.message);
  }
  return errors;
}

/**
 * What of an unexpected error goes to the log. A failed query's text carries its parameters
 * (password hashes, message texts), so for database errors only the driver's code, constraint and
 * message are kept.
 */
function loggable(error: Error): Record<string, unknown> {
  const cause = (error as { cause?: { code?: string; constraint?: string; table?: string; message?: string } }).cause;
  if (error.name === 'DrizzleQueryError' || error.message.startsWith('Failed query')) {
    return { type: 'database', code: cause?.code, constraint: cause?.constraint, table: cause?.table, cause: cause?.message };
  }
  return { type: error.name, message: error.message, stack: error.stack };
}

export interface ErrorHandlerOptions {
  /**
   * The HTML page for a request of a server-rendered page while the database does not answer (the
   * subscriber portal's, in the reader's language); null for a request that wants JSON.
   */
  unavailablePage?: (request: FastifyRequest) => string | null;
}

/** How long a client may wait before asking again while the database does not answer. */
const RETRY_AFTER_SECONDS = '30';

/** The one place errors become the response envelope of ARCHITECTURE.md: no stack, no SQL. */
export function installErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    const send = (status: number, body: Omit<ErrorBody, 'request_id'>) =>
      reply.status(status).send({ ...body, request_id: request.id });

    if (error instanceof AppError) {
      return send(error.status, {
        message: defaultText(error.status),
        info: error.info,
        ...(error.options.errors ? { errors: error.options.errors } : {}),
        ...(error.options.code ? { code: error.options.code } : {}),
        ...(error.options.popup ? { popup: true } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrorsOf(
        error.validation.map((v) => ({
          path: String(v.instancePath ?? '').split('/').filter(Boolean),
          message: v.message ?? 'Invalid value',
        })),
      );
      return send(422, { message: statusTexts[422], info: summarise(errors), errors });
    }
    if (error instanceof ZodError) {
      const errors = fieldErrorsOf(error.issues);
      return send(422, { message: statusTexts[422], info: summarise(errors), errors });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its contract');
      return send(500, { message: statusTexts[500], info: statusTexts[500] });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500 && isDatabaseUnavailable(error)) {
      // As /api/health and /api/ready answer: the service is unavailable, not broken; the same
      // request works once the database is back (sign-in, the portal's pages).
      request.log.warn({ error: loggable(error) }, 'request refused: the database does not answer');
      reply.header('retry-after', RETRY_AFTER_SECONDS).header('cache-control', 'no-store');
      const page = options.unavailablePage?.(request);
      if (page) return reply.status(503).type('text/html; charset=utf-8').send(page);
      return send(503, { message: statusTexts[503], info: statusTexts[503] });
    }
    if (status >= 500) {
      request.log.error({ error: loggable(error) }, 'request failed');
      return send(500, { message: statusTexts[500], info: statusTexts[500] });
    }
    // Fastify's own 4xx: malformed JSON, wrong content type, body too large ...
    return send(status, { message: defaultText(status), info: clientErrorText(error) });
  });
}

function summarise(errors: FieldErrors): string {
  // The first message only: field names are the API's words, the form already shows each message
  // under its own input.
  const [, messages] = Object.entries(errors)[0] ?? [];
  return messages?.[0] ? `${statusTexts[422]} ${messages[0]}` : statusTexts[422];
}

function clientErrorText(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here; send JSON.';
    default:
      return defaultText(error.statusCode ?? 400);
  }
}
