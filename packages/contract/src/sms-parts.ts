/**
 * Real SMS part counting (INTEGRATIONS.md): GSM-7 is 160 characters in one part, 153 per part when
 * split, extension characters counting two; one character outside GSM-7 makes the message UCS-2:
 * 70 in one part, 67 per part.
 */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export function smsEncoding(text: string): SmsEncoding {
  for (const ch of text) {
    if (!GSM7_BASIC.includes(ch) && !GSM7_EXTENSION.includes(ch)) return 'UCS-2';
  }
  return 'GSM-7';
}

/** The units a text takes in its encoding: GSM-7 septets (an extension character is two) or UCS-2 code units. */
function smsUnits(text: string, encoding: SmsEncoding): number {
  let units = 0;
  if (encoding === 'GSM-7') {
    for (const ch of text) units += GSM7_EXTENSION.includes(ch) ? 2 : 1;
  } else {
    for (const ch of text) units += ch.length; // astral characters take two UCS-2 units
  }
  return units;
}

/** What one part holds: a single SMS, or each part of a split one (the rest carries the joining header). */
const PART_SIZES: Record<SmsEncoding, { single: number; split: number }> = {
  'GSM-7': { single: 160, split: 153 },
  'UCS-2': { single: 70, split: 67 },
};

export function smsParts(text: string): number {
  return smsCount(text).parts;
}

/** How a text leaves as SMS: its encoding, parts, what a part holds, and the characters left in the last part. */
export interface SmsCount {
  encoding: SmsEncoding;
  parts: number;
  /** 160 or 153 (GSM-7), 70 or 67 (UCS-2): what each part of this text holds. */
  per_part: number;
  /** Units still free in the last part before another part starts (an extension character takes two). */
  characters_left: number;
  /** The distinct characters that make it UCS-2, in order (empty for GSM-7). */
  unicode_characters: string[];
}

/** The one count of SMS parts, used by the outbox, the estimate endpoint and the composers alike. */
export function smsCount(text: string): SmsCount {
  const encoding = smsEncoding(text);
  const size = PART_SIZES[encoding];
  const units = smsUnits(text, encoding);
  const parts = units <= size.single ? 1 : Math.ceil(units / size.split);
  const perPart = parts === 1 ? size.single : size.split;
  return {
    encoding,
    parts,
    per_part: perPart,
    characters_left: parts * perPart - units,
    unicode_characters: unicodeCharacters(text),
  };
}

/** The distinct characters of a text that force it out of GSM-7 (each makes the SMS Unicode), in order. */
export function unicodeCharacters(text: string): string[] {
  const found: string[] = [];
  for (const ch of text) {
    if (!GSM7_BASIC.includes(ch) && !GSM7_EXTENSION.includes(ch) && !found.includes(ch)) found.push(ch);
  }
  return found;
}

/**
 * Look-alikes a phone or a word processor slips in for GSM-7 characters (curly quotes and
 * apostrophes, dashes, ellipsis, non-breaking spaces), with the GSM-7 text that reads the same.
 */
export const GSM7_LOOKALIKES: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u2033': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00A0': ' ',
  '\u202F': ' ',
  '\u2009': ' ',
};

/** The text with every look-alike replaced by its GSM-7 form (other Unicode characters are left as they are). */
export function replaceLookalikes(text: string): string {
  let out = '';
  for (const ch of text) out += GSM7_LOOKALIKES[ch] ?? ch;
  return out;
}

/**
 * A promotional SMS as it leaves: the text with the opt-out line at its end (once), so the server
 * and the composers count the same parts.
 */
export function withOptOutLine(body: string, optOutText: string): string {
  return optOutText === '' || body.trimEnd().endsWith(optOutText) ? body : `${body.trimEnd()} ${optOutText}`;
}
