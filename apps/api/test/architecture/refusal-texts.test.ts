import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusalTexts } from '@betdesk/contract';
import { apiRoot } from './import-graph.ts';

/**
 * Issue 32 item 4: the API's refusals come from the texts' catalogue (refusalTexts and the
 * features' texts in packages/contract), never a sentence written where it is thrown.
 */
const REFUSAL = /(?:notFound|conflict|fieldError|invalid|forbidden|new AppError)\((?:[^;()']|'[^']*'(?=\s*,))*?'([A-Z][^']{6,})'/g;

export function inlineRefusals(source: string): string[] {
  return [...source.matchAll(REFUSAL)].map((m) => m[1]!);
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe("the API's refusals (the texts' catalogue)", () => {
  it('throws no sentence written where it is thrown', () => {
    const found = sources(join(apiRoot, 'src')).flatMap((file) =>
      inlineRefusals(readFileSync(file, 'utf8')).map((text) => `${relative(apiRoot, file)}: ${text}`),
    );
    expect(found).toEqual([]);
  });

  it('finds one when there is one, and lets a catalogue text or a field name through', () => {
    expect(inlineRefusals(`throw notFound('This post does not exist.');`)).toEqual(['This post does not exist.']);
    expect(inlineRefusals(`throw fieldError('email', 'A user with this email already exists');`)).toEqual(['A user with this email already exists']);
    expect(inlineRefusals(`throw new AppError(409, 'A backup is already running');`)).toEqual(['A backup is already running']);
    expect(inlineRefusals(`throw fieldError('email', refusalTexts.userEmailTaken);`)).toEqual([]);
    expect(inlineRefusals(`throw conflict(refusalTexts.twoFactorAlreadyOn, 'two_factor_enabled');`)).toEqual([]);
  });

  it('keeps each refusal once in the catalogue', () => {
    const texts = Object.values(refusalTexts);
    expect(new Set(texts).size).toBe(texts.length);
  });
});
