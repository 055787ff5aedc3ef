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

export function smsParts(text: string): number {
  if (text.length === 0) return 1;
  if (smsEncoding(text) === 'GSM-7') {
    let units = 0;
    for (const ch of text) units += GSM7_EXTENSION.includes(ch) ? 2 : 1;
    return units <= 160 ? 1 : Math.ceil(units / 153);
  }
  let units = 0;
  for (const ch of text) units += ch.length; // astral characters take two UCS-2 units
  return units <= 70 ? 1 : Math.ceil(units / 67);
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
