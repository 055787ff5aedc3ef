import { Readable } from 'node:stream';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { Endpoint } from '@betdesk/contract';
import type { Actor } from './actor.ts';
import { requireAccess } from './guard.ts';

export type CsvCell = string | number | null | undefined;

export interface CsvTable<T> {
  /** Download name without extension, e.g. 'closed-bets'. */
  filename: string;
  columns: { header: string; value: (row: T) => CsvCell }[];
  /** One batch of the filtered result in a stable order; fewer than `limit` rows ends the export. */
  batch: (page: { limit: number; offset: number }) => Promise<T[]>;
}

const BATCH_ROWS = 1000;

/** RFC 4180 quoting; text that a spreadsheet would run as a formula is prefixed with a quote. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function* csvLines<T>(table: CsvTable<T>): AsyncGenerator<string> {
  yield `${table.columns.map((c) => csvCell(c.header)).join(',')}\r\n`;
  for (let offset = 0; ; offset += BATCH_ROWS) {
    const batch = await table.batch({ limit: BATCH_ROWS, offset });
    if (batch.length > 0) {
      yield batch.map((row) => `${table.columns.map((c) => csvCell(c.value(row))).join(',')}\r\n`).join('');
    }
    if (batch.length < BATCH_ROWS) return;
  }
}

/**
 * Registers a CSV export of the contract: the permission guard and query validation of every route,
 * then the whole filtered result streamed from the database in batches (no paging in the browser).
 */
export function csvRoute<Q extends z.ZodType, T>(
  app: FastifyInstance,
  endpoint: Endpoint<Q, z.ZodType, z.ZodType>,
  table: (ctx: { query: z.output<Q>; actor: Actor }) => Promise<CsvTable<T>>,
): void {
  const schema: FastifySchema = {
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: [{ bearer: [] }],
    produces: ['text/csv'],
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
  };
  app.route({
    method: 'GET',
    url: endpoint.path,
    schema,
    preValidation: requireAccess(endpoint.access),
    handler: async (request, reply) => {
      const actor = request.actor;
      if (!actor) throw new Error(`${endpoint.path} needs a signed-in user`);
      const csv = await table({ query: request.query as z.output<Q>, actor });
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csvLines(csv)));
    },
  });
}
