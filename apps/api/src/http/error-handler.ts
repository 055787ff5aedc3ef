import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { statusTexts, type ErrorBody } from '@betdesk/contract';
import { AppError, type FieldErrors } from './errors.ts';

function defaultText(status: number): string {
  return (statusTexts as Record<number, string>)[status] ?? 'The request could not be processed.';
}

function fieldErrorsOf(issues: { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.filter((p) => typeof p !== 'symbol').join('.') || 'body';
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** The one place errors become the response envelope of ARCHITECTURE.md: no stack, no SQL. */
export function installErrorHandler(app: FastifyInstance): void {
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
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return send(500, { message: statusTexts[500], info: statusTexts[500] });
    }
    // Fastify's own 4xx: malformed JSON, wrong content type, body too large ...
    return send(status, { message: defaultText(status), info: clientErrorText(error) });
  });
}

function summarise(errors: FieldErrors): string {
  const [field, messages] = Object.entries(errors)[0] ?? [];
  return field ? `${statusTexts[422]} ${field}: ${messages?.[0] ?? 'invalid'}` : statusTexts[422];
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
