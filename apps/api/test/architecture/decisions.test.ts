import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';

const folder = join(apiRoot, '../../docs/decisions');
const records = readdirSync(folder)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .map((name) => ({ number: name.slice(0, 3), name, text: readFileSync(join(folder, name), 'utf8') }));
const byNumber = new Map(records.map((r) => [r.number, r]));

/** A record amended more than once names each later record: "amended by 042, 043". */
const STATUS = /^Date: \d{4}-\d{2}-\d{2} · Status: (proposed|accepted|amended by (\d{3}(?:, \d{3})*)|superseded by (\d{3}))$/m;

describe('decision records (docs/decisions/TEMPLATE.md)', () => {
  it('are numbered once each', () => {
    expect(records.length).toBeGreaterThan(30);
    expect(new Set(records.map((r) => r.number)).size).toBe(records.length);
  });

  it('each carry a date and one of the template statuses', () => {
    expect(records.filter((r) => !STATUS.test(r.text)).map((r) => r.name)).toEqual([]);
  });

  it('name the record that amends or supersedes them, and that record names them back', () => {
    const broken: string[] = [];
    for (const record of records) {
      const [, , amendedBy, supersededBy] = record.text.match(STATUS) ?? [];
      const verb = amendedBy ? 'Amends' : 'Supersedes';
      for (const later of (amendedBy ?? supersededBy)?.split(', ') ?? []) {
        const other = byNumber.get(later);
        if (!other) broken.push(`${record.name}: ${later} does not exist`);
        else if (!new RegExp(`^${verb}: ${record.number}\\b`, 'm').test(other.text)) broken.push(`${other.name} does not say "${verb}: ${record.number}"`);
      }
      for (const [, verb, earlier] of record.text.matchAll(/^(Amends|Supersedes): (\d{3})\b/gm)) {
        const other = byNumber.get(earlier!);
        const expected = `${verb === 'Amends' ? 'amended' : 'superseded'} by ${record.number}`;
        const status = other?.text.match(STATUS);
        const named = verb === 'Amends' ? status?.[2]?.split(', ') : status?.[3] ? [status[3]] : [];
        // An amendment inside a history that a later record replaced whole (both superseded by it) stands.
        const ownSuperseder = record.text.match(STATUS)?.[3];
        const replacedTogether = verb === 'Amends' && ownSuperseder !== undefined && status?.[3] === ownSuperseder;
        if (!named?.includes(record.number) && !replacedTogether) broken.push(`${earlier} does not say "${expected}"`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('describe C2B ingestion in one current record, which supersedes the amendments it grew from', () => {
    const current = records.filter((r) => /^# \d{3} · C2B ingestion as it stands/m.test(r.text));
    expect(current.map((r) => r.number)).toEqual(['063']);
    for (const old of ['044', '046', '047', '049', '050', '051', '053']) {
      expect(byNumber.get(old)?.text.match(STATUS)?.[3]).toBe('063');
    }
  });

  it('from 032 on, follow the template: Context, Decision, Consequences', () => {
    const late = records.filter((r) => r.number >= '032');
    const missing = late.filter((r) => !['## Context', '## Decision', '## Consequences'].every((h) => r.text.includes(h)));
    expect(missing.map((r) => r.name)).toEqual([]);
  });
});
