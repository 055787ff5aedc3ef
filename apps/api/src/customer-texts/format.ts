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

/** Month abbreviations per language: Kiswahili's own (Mac, Mei, Ago, Okt, Des), never English in a Kiswahili text. */
const MONTHS: Record<Language, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  sw: ['Jan', 'Feb', 'Mac', 'Apr', 'Mei', 'Jun', 'Jul', 'Ago', 'Sep', 'Okt', 'Nov', 'Des'],
};

const nairobi = new Intl.DateTimeFormat('en-GB', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type DateInput = Date | string;

/** A Nairobi day alone (YYYY-MM-DD) is that day, whatever the server's zone. */
const toDate = (value: DateInput): Date => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00+03:00`) : new Date(value));

function nairobiParts(value: DateInput) {
  const parts: Record<string, string> = {};
  for (const part of nairobi.formatToParts(toDate(value))) parts[part.type] = part.value;
  return { day: Number(parts.day), month: Number(parts.month) - 1, year: parts.year!, time: `${parts.hour}:${parts.minute}` };
}

/**
 * A day in a customer text (SMS, USSD, portal), Nairobi time, one form per language: "8 Dec 2026"
 * in English, "8 Des 2026" in Kiswahili. GSM-7 only (no narrow no-break space from ICU).
 */
export function customerDate(value: DateInput, language: Language): string {
  const p = nairobiParts(value);
  return `${p.day} ${MONTHS[language][p.month]} ${p.year}`;
}

/** A time in a customer text: "8 Dec 2026, 23:26" in English, "8 Des 2026, saa 23:26" in Kiswahili. */
export function customerDateTime(value: DateInput, language: Language): string {
  const p = nairobiParts(value);
  return `${p.day} ${MONTHS[language][p.month]} ${p.year}, ${language === 'sw' ? 'saa ' : ''}${p.time}`;
}
