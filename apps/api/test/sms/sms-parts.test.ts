import { describe, expect, it } from 'vitest';
import { replaceLookalikes, smsCount, smsParts, unicodeCharacters } from '@betdesk/contract';

/** Issue 31: the one count of SMS parts (contract), the one the outbox, the estimate and the composers use. */
describe('SMS parts', () => {
  it('holds 160 GSM-7 characters in one part and splits the 161st into two of 153', () => {
    expect(smsCount('a'.repeat(160))).toEqual({ encoding: 'GSM-7', parts: 1, per_part: 160, characters_left: 0, unicode_characters: [] });
    expect(smsCount('a'.repeat(161))).toMatchObject({ encoding: 'GSM-7', parts: 2, per_part: 153, characters_left: 306 - 161 });
    expect(smsParts('a'.repeat(306))).toBe(2);
    expect(smsParts('a'.repeat(307))).toBe(3);
  });

  it('holds 70 Unicode characters in one part and splits the 71st into two of 67', () => {
    expect(smsCount('✓'.repeat(70))).toMatchObject({ encoding: 'UCS-2', parts: 1, per_part: 70, characters_left: 0, unicode_characters: ['✓'] });
    expect(smsCount('✓'.repeat(71))).toMatchObject({ encoding: 'UCS-2', parts: 2, per_part: 67, characters_left: 134 - 71 });
  });

  it('counts an extension-table character (€, [) as two', () => {
    expect(smsCount('€')).toMatchObject({ encoding: 'GSM-7', parts: 1, characters_left: 158 });
    expect(smsParts('€'.repeat(80))).toBe(1);
    expect(smsParts('€'.repeat(81))).toBe(2);
    expect(smsParts(`${'a'.repeat(159)}[`)).toBe(2);
    expect(smsParts(`${'a'.repeat(158)}[`)).toBe(1);
  });

  it('turns a text Unicode for one curly apostrophe, and counts it again once the look-alikes are replaced', () => {
    const text = `Arsenal’s ${'a'.repeat(90)}`;
    expect(smsCount(text)).toMatchObject({ encoding: 'UCS-2', parts: 2, unicode_characters: ['’'] });
    const fixed = replaceLookalikes(text);
    expect(fixed.startsWith("Arsenal's ")).toBe(true);
    expect(smsCount(fixed)).toMatchObject({ encoding: 'GSM-7', parts: 1, unicode_characters: [] });
  });

  it('replaces curly quotes, dashes, the ellipsis and non-breaking spaces, and leaves other Unicode as it is', () => {
    expect(replaceLookalikes('“Win” – odds… 2\u00A0legs — ✓')).toBe('"Win" - odds... 2 legs - ✓');
    expect(unicodeCharacters('“Win” – ✓ ✓')).toEqual(['“', '”', '–', '✓']);
  });

  it('counts an empty text as one part with everything left', () => {
    expect(smsCount('')).toEqual({ encoding: 'GSM-7', parts: 1, per_part: 160, characters_left: 160, unicode_characters: [] });
  });
});
