import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from '@betdesk/contract';
import type { Endpoint } from '@betdesk/contract';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { c2b, seedPeople } from '../mpesa/fixtures.ts';
import { portalStatement } from '../reconciliation/statement-file.ts';

/**
 * Every endpoint of the contract, called as an admin with malformed input: NUL, lone surrogates,
 * 1 MB strings, deep nesting and wrong types, in the query, the body and the path. No answer may
 * be a 5xx. The set is fixed (no randomness): each field gets NUL and one other malformation,
 * taken in turn, so a failure is reproduced by running the file again.
 */

const SECRET = 'test-webhook-secret-0123';

/** Not called: the event stream never ends (it is answered by a hijacked socket). */
const NOT_CALLED = new Set(['GET /api/events']);
/** Called last: it revokes the admin's session. */
const LAST = 'POST /api/auth/logout';

function isEndpoint(value: unknown): value is Endpoint {
  const e = value as Partial<Endpoint> | null;
  return typeof e === 'object' && e !== null && typeof e.path === 'string' && e.path.startsWith('/api/') && (e.method === 'GET' || e.method === 'POST') && 'response' in e && 'access' in e;
}

const endpoints = (Object.values(contract) as unknown[])
  .filter(isEndpoint)
  .map((e) => ({ e, key: `${e.method} ${e.path}` }))
  .filter(({ key }) => !NOT_CALLED.has(key))
  .sort((a, b) => (a.key === LAST ? 1 : b.key === LAST ? -1 : a.key.localeCompare(b.key)));

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; element?: z.ZodType; entries?: Record<string, unknown>; values?: unknown[]; options?: z.ZodType[] };
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** The object a schema reads, through optional/default/pipe wrappers; null when it is no object. */
function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> | null {
  for (let s = schema; s; ) {
    const def = defOf(s);
    if (def.type === 'object') return def.shape ?? null;
    if (def.type === 'pipe') s = defOf(def.in!).type === 'transform' ? def.out : def.in;
    else s = def.innerType;
  }
  return null;
}

/** A plausible value for a field, so that the other fields of a body do not hide the one fuzzed. */
function sample(name: string, schema: z.ZodType, depth = 0): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return sample(name, def.innerType!, depth);
    case 'pipe':
      return sample(name, defOf(def.in!).type === 'transform' ? def.out! : def.in!, depth);
    case 'string':
      if (/phone|msisdn/i.test(name)) return '0712345678';
      if (/email/i.test(name)) return 'fuzz@example.com';
      if (/date|_on$|from|to$/i.test(name)) return '2026-11-25';
      return 'fuzz text';
    case 'number':
    case 'int':
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'array':
      return depth < 2 ? [sample(name, def.element!, depth + 1)] : [];
    case 'object':
      return depth < 2 ? Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, sample(k, v, depth + 1)])) : {};
    case 'union':
      return sample(name, def.options![0]!, depth);
    default:
      return 'fuzz';
  }
}

/** Stands for a value nested 5,000 levels deep; written into the JSON text directly (JSON.stringify would overflow). */
const DEEP = '\u0001deep';
const DEEP_JSON = `${'['.repeat(5000)}"bottom"${']'.repeat(5000)}`;
const jsonOf = (payload: unknown) => JSON.stringify(payload).replaceAll(JSON.stringify(DEEP), DEEP_JSON);
const HUGE = 'x'.repeat(1_000_000);

/** The malformations, taken in turn after NUL (which every field gets). */
const BODY_VALUES: { name: string; value: unknown }[] = [
  { name: 'lone surrogate', value: 'fuzz\ud800value' },
  { name: '1 MB string', value: HUGE },
  { name: 'deep nesting', value: DEEP },
  { name: 'wrong type (number)', value: 1e20 },
  { name: 'wrong type (object)', value: { $gt: '' } },
  { name: 'wrong type (list)', value: ['a', 'b'] },
  { name: 'wrong type (boolean)', value: false },
  { name: 'null', value: null },
];
/** Query strings hold text only: an encoded lone surrogate, a long text, a repeated key, a negative number. */
const QUERY_VALUES: { name: string; raw: string[] }[] = [
  { name: 'lone surrogate', raw: ['fuzz%ED%A0%80value'] },
  { name: '1 MB string', raw: [HUGE] },
  { name: 'repeated key', raw: ['1', '2'] },
  { name: 'huge number', raw: ['99999999999999999999999'] },
  { name: 'negative number', raw: ['-1'] },
];
const NUL = 'fuzz\u0000value';

interface Call {
  label: string;
  url: string;
  payload?: unknown;
  /** A multipart form, sent as is. */
  form?: { boundary: string; body: string };
}

/** A multipart form of text fields and one file. */
function multipart(fields: Record<string, string>, file: { field: string; name: string; type: string; content: string }) {
  const boundary = '----betdesk-fuzz-boundary';
  const parts = Object.entries(fields).map(([k, v]) => [`--${boundary}`, `Content-Disposition: form-data; name="${k}"`, '', v]);
  parts.push([`--${boundary}`, `Content-Disposition: form-data; name="${file.field}"; filename="${file.name}"`, `Content-Type: ${file.type}`, '', file.content]);
  return { boundary, body: [...parts.flat(), `--${boundary}--`, ''].join('\r\n') };
}

const PNG_START = '\x89PNG\r\n\x1a\n\0\0\0\rIHDR';
/** The uploads read multipart forms, not the contract's schemas: text with NUL in each of their fields. */
const UPLOADS: Record<string, Call[]> = {
  'POST /api/tips/images/upload': [
    { label: 'multipart title with NUL', url: '/api/tips/images/upload', form: multipart({ title: NUL }, { field: 'image', name: 'a.png', type: 'image/png', content: PNG_START }) },
  ],
  'POST /api/mpesa/statements': [
    {
      label: 'statement with NUL in its cells and file name',
      url: '/api/mpesa/statements',
      form: multipart(
        {},
        {
          field: 'file',
          name: 'state\u0000ment.csv',
          type: 'text/csv',
          content: portalStatement([
            { receipt: 'SNU\u000000001', completed: '2026-11-24 09:00:00', paidIn: '100.00', account: 'D\u00002', otherParty: '254733000111 - MA\u0000RY' },
            { receipt: 'SNU0000002', completed: '2026-11-24 10:00:00', paidIn: '100.00', details: 'Pay Bill from 254712345678 - JO\u0000HN Acc. D2' },
          ]),
        },
      ),
    },
  ],
};

function callsOf(e: Endpoint, turn: () => number): Call[] {
  const path = e.path.replace(':secret', SECRET);
  const calls: Call[] = [...(UPLOADS[`${e.method} ${e.path}`] ?? [])];
  const queryFields = Object.keys(shapeOf(e.query) ?? {});
  for (const field of queryFields) {
    const other = QUERY_VALUES[turn() % QUERY_VALUES.length]!;
    calls.push({ label: `query ${field}=NUL`, url: `${path}?${field}=fuzz%00value` });
    calls.push({ label: `query ${field}=${other.name}`, url: `${path}?${other.raw.map((v) => `${field}=${v}`).join('&')}` });
  }
  if (e.method === 'POST') {
    const shape = shapeOf(e.body);
    const base = shape ? Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, sample(k, v)])) : {};
    for (const field of Object.keys(shape ?? {})) {
      const other = BODY_VALUES[turn() % BODY_VALUES.length]!;
      calls.push({ label: `body ${field}=NUL`, url: path, payload: { ...base, [field]: NUL } });
      calls.push({ label: `body ${field}=${other.name}`, url: path, payload: { ...base, [field]: other.value } });
    }
    // The whole body malformed: nested deep, text with NUL in an unknown key, a bare list.
    const whole = [
      { label: 'body nested 5,000 deep', payload: { ...base, extra: DEEP } },
      { label: 'body with a NUL key', payload: { ...base, 'k\u0000': NUL } },
      { label: 'body a list', payload: [base] },
    ][turn() % 3]!;
    calls.push({ url: path, ...whole });
  }
  if (e.path.includes(':secret')) {
    calls.push({ label: 'path secret with NUL', url: e.path.replace(':secret', 'secret%00secret-0123456789') });
  }
  if (calls.length === 0) calls.push({ label: 'unexpected query', url: `${path}?x=fuzz%00value&x=${HUGE.slice(0, 10_000)}` });
  return calls;
}

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  // Records with id 1 (a category, packages, plans, a client, a subscriber, a payment), so that the
  // sampled ids of a body lead past "no such record" into the handlers.
  const ref = await seedPeople(t);
  await ref.person('client', 'Fuzz Client', '254733000001');
  await ref.person('subscriber', 'Fuzz Subscriber', '254733000002');
  await t.app.inject({ method: 'POST', url: `/api/hooks/c2b/confirmation/${SECRET}`, payload: c2b({ BillRefNumber: 'NOBODY' }) });
  await t.addUser({ email: 'fuzz-admin@example.com', categoryId: ADMIN, name: 'Fuzz Admin' });
  token = await t.tokenFor('fuzz-admin@example.com');
});
afterAll(() => t.close());

describe('malformed input on every route of the contract', () => {
  it('lists the whole contract: every route the API documents', () => {
    const documented = Object.entries((t.app.swagger() as { paths: Record<string, object> }).paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const listed = new Set([...endpoints.map(({ key }) => key), ...NOT_CALLED]);
    expect(documented.filter((key) => key.startsWith('GET /api') || key.startsWith('POST /api')).filter((key) => !listed.has(key))).toEqual([]);
    expect(endpoints.length).toBeGreaterThan(100);
    expect(endpoints.some(({ key }) => key === 'POST /api/hooks/c2b/confirmation/:secret')).toBe(true);
  });

  it('never answers a 5xx', { timeout: 120_000 }, async () => {
    let counter = 0;
    const turn = () => counter++;
    const failures: string[] = [];
    let sent = 0;
    for (const { e, key } of endpoints) {
      for (const call of callsOf(e, turn)) {
        const send = () =>
          t.as(token, {
            method: e.method,
            url: call.url,
            ...(call.payload !== undefined ? { payload: jsonOf(call.payload), headers: { 'content-type': 'application/json' } } : {}),
            ...(call.form ? { payload: call.form.body, headers: { 'content-type': `multipart/form-data; boundary=${call.form.boundary}` } } : {}),
          });
        let res = await send();
        sent += 1;
        if (res.statusCode === 401 && e.access !== 'public' && e.access !== 'portal') {
          // A call revoked the session (the sampled body of save-password is a valid change to
          // 'fuzz text'; ending a signed-in device ends this one): sign in again and repeat it.
          token = await t.tokenFor('fuzz-admin@example.com', 'fuzz text').catch(() => t.tokenFor('fuzz-admin@example.com'));
          res = await send();
        }
        if (res.statusCode >= 500) failures.push(`${key} ${call.label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  });
});
