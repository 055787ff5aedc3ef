import { z } from 'zod';
import type { Permission } from './permissions.ts';
import { refuseUnsafeText } from './text.ts';

/**
 * One endpoint of spec section 7: the API registers a route from it (validation, serialisation,
 * OpenAPI, permission) and the web types its call with it.
 */
export interface Endpoint<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  tag: string;
  /**
   * Who may call it: 'public' needs no session; 'portal' a subscriber's portal session (cookie,
   * never a staff token); otherwise a staff permission of the matrix.
   */
  access: 'public' | 'portal' | Permission;
  query?: Q;
  body?: B;
  response: R;
}

/** Declares an endpoint; its query and body refuse unsafe text (text.ts) whatever their fields. */
export function endpoint<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: Endpoint<Q, B, R>,
): Endpoint<Q, B, R> {
  return {
    ...def,
    ...(def.query ? { query: refuseUnsafeText(def.query) } : {}),
    ...(def.body ? { body: refuseUnsafeText(def.body) } : {}),
  };
}

export type QueryOf<E> = E extends Endpoint<infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type BodyOf<E> = E extends Endpoint<z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type ResponseOf<E> = E extends Endpoint<z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/**
 * A table's CSV export: the whole filtered result streamed by the server (text/csv), at the list's
 * path plus `/export`, with the list's filters but no paging.
 */
export function csvExport<Q extends z.ZodType>(def: {
  path: string;
  tag: string;
  summary: string;
  access: Parameters<typeof endpoint>[0]['access'];
  query?: Q;
}) {
  return endpoint({ method: 'GET', ...def, response: z.string() });
}
