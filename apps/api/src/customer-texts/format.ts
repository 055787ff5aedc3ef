import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { BUSINESS_TIME_ZONE } from '@betdesk/contract';
import type { Language } from './catalogue.ts';

/** Values a text is filled with: strings as they are (never read as patterns), numbers for plurals. */
export type TextValues = Record<string, string | number>;

const LOCALES: Record<Language, string> = { en: 'en-KE', sw: 'sw-KE' };

/** Parsed messages, kept: the catalogue's are few, and edited settings replace theirs; bounded anyway. */
const cache = new Map<string, IntlMessageFormat>();
const CACHE_MAX = 1000;

function compiled(template: string, language: Language): IntlMessageFormat {
  const key = `${language}\u0000${template}`;
  let message = cache.get(key);
  if (!message) {
    if (cache.size >= CACHE_MAX) cache.clear();
    message = new IntlMessageFormat(template, LOCALES[language], undefined, { ignoreTag: true });
    cache.set(key, message);
  }
  return message;
}

/**
 * The one fill function of every template (customer texts, the staff's temporary-password SMS).
 * ICU MessageFormat through FormatJS: a value is inserted as it is, so `$&`, `$1` or `{name}` in a
 * name stay literally what the person typed (string replacement read `$&` as a pattern). Numbers
 * are for plurals (amounts arrive already formatted as strings); a
 * placeholder left without a value is an error, never a silent `{name}` in an SMS.
 */
export function fill(template: string, values: TextValues, language: Language = 'en'): string {
  const message = compiled(template, language);
  const plain: TextValues = {};
  for (const [key, value] of Object.entries(values)) plain[key] = typeof value === 'number' ? value : String(value);
  const out = message.format(plain);
  return Array.isArray(out) ? out.join('') : String(out);
}

function collect(elements: MessageFormatElement[], into: Set<string>): void {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      collect(el.children, into);
      continue;
    }
    into.add(el.value);
    if (el.type === TYPE.select || el.type === TYPE.plural) {
      for (const option of Object.values(el.options)) collect(option.value, into);
    }
  }
}

/**
 * The placeholders a text fills, in order of first use; throws a readable Error when the text is
 * not valid ICU MessageFormat (an unclosed brace, an unknown plural form).
 */
export function placeholdersOf(template: string): string[] {
  let ast: MessageFormatElement[];
  try {
    ast = parse(template, { ignoreTag: true });
  } catch (error) {
    const kind = error instanceof Error ? error.message : String(error);
    throw new Error(`The text is not a valid message (${kind.replaceAll('_', ' ').toLowerCase()}): check its { and } pairs`);
  }
  const names = new Set<string>();
  collect(ast, names);
  return [...names];
}

const dateTime = new Intl.DateTimeFormat('en-KE', {
  timeZone: BUSINESS_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * A time in an SMS, Nairobi time ("27 Nov 2026, 14:00"), the same in both languages: the short
 * month names read the same in Kiswahili, and the form stays GSM-7 (no narrow no-break space).
 */
export const smsDateTime = (date: Date): string => dateTime.format(date);
