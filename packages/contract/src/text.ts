import { z } from 'zod';

/**
 * Text no record of ours may hold: control characters (PostgreSQL refuses NUL outright, the others
 * are invisible and break CSVs and SMS) and lone UTF-16 surrogates (no character: the database
 * would silently turn them into U+FFFD). Tab, line feed and carriage return are ordinary text.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Deeper input than this is no form or provider payload of ours (5,000 levels once gave a 500). */
export const MAX_INPUT_DEPTH = 32;

export const textSafetyTexts = {
  unsafeText: 'Remove the control characters (such as NUL) from this text',
  tooDeep: `The data is nested deeper than ${MAX_INPUT_DEPTH} levels`,
  deepValueDropped: `[nested deeper than ${MAX_INPUT_DEPTH} levels: not kept]`,
} as const;

export function hasUnsafeText(text: string): boolean {
  CONTROL.lastIndex = 0;
  LONE_SURROGATE.lastIndex = 0;
  return CONTROL.test(text) || LONE_SURROGATE.test(text);
}

export interface TextIssue {
  path: (string | number)[];
  message: string;
}

type Visit = { value: unknown; path: (string | number)[]; depth: number };

/**
 * Every string (and object key) of an input that holds unsafe text, and every place it is nested
 * too deep. Walks with its own stack: a body nested 100,000 levels deep must not overflow the call
 * stack. Stops after `limit` issues.
 */
export function unsafeTextIssues(value: unknown, limit = 20): TextIssue[] {
  const issues: TextIssue[] = [];
  const stack: Visit[] = [{ value, path: [], depth: 0 }];
  while (stack.length > 0 && issues.length < limit) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === 'string') {
      if (hasUnsafeText(current)) issues.push({ path, message: textSafetyTexts.unsafeText });
    } else if (current !== null && typeof current === 'object') {
      if (depth >= MAX_INPUT_DEPTH) {
        issues.push({ path, message: textSafetyTexts.tooDeep });
        continue;
      }
      const entries = Array.isArray(current) ? current.map((item, i) => [i, item] as const) : Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, item] = entries[i]!;
        if (typeof key === 'string' && hasUnsafeText(key)) issues.push({ path: [...path, key], message: textSafetyTexts.unsafeText });
        else stack.push({ value: item, path: [...path, key], depth: depth + 1 });
      }
    }
  }
  return issues;
}

function setOwn(target: object, key: string | number, value: unknown): void {
  // defineProperty, so that a key named "__proto__" stays a plain key as JSON.parse made it.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of a JSON-like value with every string (and key) edited; levels past the limit dropped. */
function mapText(value: unknown, edit: (text: string) => string): { value: unknown; tooDeep: boolean } {
  let tooDeep = false;
  const root: { value?: unknown } = {};
  const stack: { holder: object; key: string | number; value: unknown; depth: number }[] = [
    { holder: root, key: 'value', value, depth: 0 },
  ];
  while (stack.length > 0) {
    const { holder, key, value: current, depth } = stack.pop()!;
    if (typeof current === 'string') {
      setOwn(holder, key, edit(current));
    } else if (current !== null && typeof current === 'object') {
      if (depth >= MAX_INPUT_DEPTH) {
        tooDeep = true;
        setOwn(holder, key, textSafetyTexts.deepValueDropped);
        continue;
      }
      const copy: object = Array.isArray(current) ? [] : {};
      setOwn(holder, key, copy);
      const entries = Array.isArray(current) ? current.map((item, i) => [i, item] as const) : Object.entries(current);
      // Keys are placed now, in order; their values are filled in as the stack reaches them.
      const keyed = entries.map(([k, item]) => [typeof k === 'string' ? edit(k) : k, item] as const);
      for (const [k] of keyed) setOwn(copy, k, null);
      for (let i = keyed.length - 1; i >= 0; i -= 1) {
        const [k, item] = keyed[i]!;
        stack.push({ holder: copy, key: k, value: item, depth: depth + 1 });
      }
    } else {
      setOwn(holder, key, current);
    }
  }
  return { value: root.value, tooDeep };
}

const replaceLoneSurrogates = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');

/**
 * A provider's payload (M-Pesa, Africa's Talking) is never refused for its text: money M-Pesa says
 * it received is always stored. `clean` is what we read fields from (control characters removed,
 * lone surrogates made U+FFFD); `raw` is what we keep as received, with each control character
 * written out as its `\u0000` escape so the database can hold it. `tooDeep`: levels past
 * MAX_INPUT_DEPTH were dropped, which makes the payload malformed.
 */
export function readProviderPayload(payload: unknown): { clean: unknown; raw: unknown; tooDeep: boolean } {
  const clean = mapText(payload, (text) => replaceLoneSurrogates(text.replace(CONTROL, '')));
  const raw = mapText(payload, (text) =>
    replaceLoneSurrogates(text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)),
  );
  return { clean: clean.value, raw: raw.value, tooDeep: clean.tooDeep };
}

const providerBodies = new WeakSet<z.ZodType>();

/**
 * The body of a provider's webhook: taken as sent (the handler reads it through
 * readProviderPayload), so `endpoint()` does not refuse its text.
 */
export function providerBody(): z.ZodUnknown {
  const schema = z.unknown();
  providerBodies.add(schema);
  return schema;
}

/**
 * Every input an endpoint declares, refusing unsafe text: after the schema has read the input, each
 * string it kept (query, body, nested, record keys) is checked, and a 422 names the field. One
 * mechanism for every string field, however the schema declares it.
 */
export function refuseUnsafeText<S extends z.ZodType>(schema: S): S {
  if (providerBodies.has(schema)) return schema;
  return schema.superRefine((value, ctx) => {
    for (const issue of unsafeTextIssues(value)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
}

/** A provider's form read field by field: its text cleaned first (readProviderPayload), never refused. */
export function providerFields<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => readProviderPayload(value).clean, schema);
}
