import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { SQL } from 'drizzle-orm';
import { formatDateTime, localPhone, type Endpoint } from '@betdesk/contract';
import type { Database } from '../db/client.ts';
import { streamingDatabase, streamingFrom } from '../db/replica.ts';
import type { Actor } from './actor.ts';
import { requireAccess } from './guard.ts';

export type CsvCell = string | number | null | undefined;

export interface CsvTable<T> {
  /** Download name without extension, e.g. 'closed-bets'. */
  filename: string;
  columns: { header: string; value: (row: T) => CsvCell }[];
  /** The filtered result in the list's order, a batch at a time, read as the download proceeds. */
  rows: AsyncIterable<T[]> | Iterable<T[]>;
}

const BATCH_ROWS = 5000;

/**
 * The rows of one ordered query, mapped: on PostgreSQL through a cursor, so that an export of
 * millions of rows streams with flat memory and no page loop. Inside a CSV route the rows come from
 * the database the request's read routing chose (the replica, decision 073), decided when called.
 */
export function queryBatches<R, T>(database: Database, query: SQL, map: (row: R) => T): AsyncGenerator<T[]> {
  const source = streamingDatabase(database);
  return (async function* batches() {
    for await (const batch of source.streamRows(query, BATCH_ROWS)) yield (batch as R[]).map(map);
  })();
}

/** A time as the screens show it: Africa/Nairobi, '05 Mar 2025, 14:30'. */
export const csvDateTime = (value: string | Date | null | undefined): string => formatDateTime(value);

/** A phone as the screens show it: 07XXXXXXXX. */
export const csvPhone = (e164: string | null | undefined): string => (e164 ? localPhone(e164) : '');

/** A plain number as a spreadsheet reads it (-1.00, 12.5): not a formula, so it stays a number. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * RFC 4180 quoting; text that a spreadsheet would run as a formula is prefixed with a quote. A
 * negative figure starts with '-' too, but is a number, not a formula: it is written as is.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function batchesOf<T>(rows: AsyncIterable<T[]> | Iterable<T[]>): AsyncIterator<T[]> | Iterator<T[]> {
  return Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
}

/**
 * The CSV text, with its first batch of rows already read: a query that fails does so here, before
 * the answer has started, and is answered as any error is (4xx/5xx with the JSON envelope), not as a
 * download cut off after its headers.
 */
async function openCsv<T>(table: CsvTable<T>): Promise<AsyncGenerator<string>> {
  const batches = batchesOf(table.rows);
  const first = await batches.next();
  const line = (row: T) => `${table.columns.map((c) => csvCell(c.value(row))).join(',')}\r\n`;
  return (async function* csvLines() {
    try {
      yield `${table.columns.map((c) => csvCell(c.header)).join(',')}\r\n`;
      for (let batch = first; !batch.done; batch = await batches.next()) yield batch.value.map(line).join('');
    } finally {
      // A download the browser gave up on closes the database cursor too.
      await batches.return?.();
    }
  })();
}

/**
 * Sends a CSV table as a download: its first batch is read before the answer starts (see openCsv),
 * then the rest streams. Every CSV of the API goes out through here (a public page's own download,
 * e.g. /portal/record.csv, too).
 */
export async function sendCsv<T>(reply: FastifyReply, csv: CsvTable<T>): Promise<FastifyReply> {
  const lines = await openCsv(csv);
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.filename}-${day}.csv"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines));
}

/**
 * Registers a CSV export of the contract: the permission guard and query validation of every route,
 * then the whole filtered result streamed from the database (no paging in the browser).
 */
export function csvRoute<Q extends z.ZodType, T>(
  app: FastifyInstance,
  endpoint: Endpoint<Q, z.ZodType, z.ZodType>,
  table: (ctx: { query: z.output<Q>; actor: Actor; request: FastifyRequest }) => Promise<CsvTable<T>>,
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
      const work = () => table({ query: request.query as z.output<Q>, actor, request });
      const csv = request.readDatabase ? await streamingFrom(await request.readDatabase(), work) : await work();
      return sendCsv(reply, csv);
    },
  });
}
