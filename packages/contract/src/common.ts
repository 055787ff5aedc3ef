import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './constants.ts';

/** Body of every mutation's answer: the spec's generic response fields (section 3). */
export const Notice = z.object({
  message: z.string().optional(),
  info: z.string().optional(),
  code: z.string().optional(),
  popup: z.boolean().optional(),
  goBack: z.boolean().optional(),
});
export type Notice = z.infer<typeof Notice>;

/** 4xx/5xx body. `errors` only on 422, keyed by the spec's field names. */
export const ErrorBody = z.object({
  message: z.string(),
  info: z.string(),
  code: z.string().optional(),
  popup: z.boolean().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Query of every remote-paged table: page from 1, perPage one of the spec's sizes. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000, 'page is too large').default(1),
  perPage: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), {
      message: `perPage must be one of ${PAGE_SIZES.join(', ')}`,
    })
    .default(DEFAULT_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const SearchPageQuery = PageQuery.extend({
  search: z.string().trim().max(100).default(''),
});
export type SearchPageQuery = z.infer<typeof SearchPageQuery>;

/** Ids are PostgreSQL integers: anything past 2^31 - 1 is no id of ours (a 422, not a database error). */
export const MAX_ID = 2_147_483_647;

/** An id in a query string or body: a positive integer, coerced from text. */
export const Id = z.coerce.number({ message: 'Must be a number' }).int().positive().max(MAX_ID, 'No such record');

/**
 * The id picked in a select: nothing chosen (absent, null, '' or 0) and anything that is no id
 * give the one message the form shows, e.g. 'Choose a bet category'.
 */
export function ChoiceId(message: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ error: message }).int(message).positive(message).max(MAX_ID, message),
  );
}

/** 2547XXXXXXXX -> 07XXXXXXXX, the form staff read. */
export function localPhone(e164Digits: string): string {
  return e164Digits.startsWith('254') ? `0${e164Digits.slice(3)}` : e164Digits;
}

/** Money on the wire: KES as a number with at most two decimals. */
export const Kes = z.number();
