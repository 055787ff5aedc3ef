import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';

const repoRoot = join(apiRoot, '../..');
const rules = readFileSync(join(repoRoot, 'docs/BUSINESS-RULES.md'), 'utf8');

/** BUSINESS-RULES.md's sections (## and ###), each with its heading and text up to the next heading. */
const sections = rules
  .split(/^(?=#{2,3} )/m)
  .filter((part) => /^#{2,3} /.test(part))
  .map((part) => ({ heading: part.split('\n', 1)[0]!, text: part }));

/** The repository paths in backticks on a section's "Lives in:" line. */
const homesOf = (text: string) => {
  const line = text.match(/^Lives in: (.+)$/m)?.[1] ?? '';
  return [...line.matchAll(/`([^`]+\/[^`]+)`/g)].map((m) => m[1]!);
};

describe("BUSINESS-RULES.md names each rule's home", () => {
  it('has sections to check', () => {
    expect(sections.length).toBeGreaterThan(15);
  });

  it('gives every section a "Lives in:" line naming at least one file or folder', () => {
    expect(sections.filter((s) => homesOf(s.text).length === 0).map((s) => s.heading)).toEqual([]);
  });

  it('names only homes that exist', () => {
    const missing = sections.flatMap((s) => homesOf(s.text).filter((path) => !existsSync(join(repoRoot, path))).map((path) => `${s.heading}: ${path}`));
    expect(missing).toEqual([]);
  });
});
