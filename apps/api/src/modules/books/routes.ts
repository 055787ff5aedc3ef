import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BooksMonth, closeBooksPeriod, confirmBooksPeriod, listBooksPeriods, reopenBooksPeriod } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { fieldError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as books from './service.ts';

/**
 * The books periods' routes (decision 075): list, ask to close, confirm, ask to reopen.
 * Lives in: apps/api/src/modules/books/routes.ts
 */

function monthOf(request: FastifyRequest): string {
  const parsed = BooksMonth.safeParse((request.params as { month?: string }).month);
  if (!parsed.success) throw fieldError('month', parsed.error.issues[0]!.message);
  return parsed.data;
}

export function booksRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, listBooksPeriods, () => books.listPeriods(deps));
  route(app, closeBooksPeriod, ({ actor, body, request }) => books.askToClose(deps, actor, monthOf(request), body, request.id));
  route(app, confirmBooksPeriod, ({ actor, body, request }) => books.confirm(deps, actor, monthOf(request), body.code, request.id));
  route(app, reopenBooksPeriod, ({ actor, request }) => books.askToReopen(deps, actor, monthOf(request), request.id));
}
