import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';

const repoRoot = join(apiRoot, '../..');
const architecture = readFileSync(join(repoRoot, 'docs/ARCHITECTURE.md'), 'utf8');

/** The names in backticks between `<!-- tag -->` and `<!-- /tag -->` of ARCHITECTURE.md's map. */
function listed(tag: string): string[] {
  const block = architecture.split(`<!-- ${tag} -->`)[1]?.split(`<!-- /${tag} -->`)[0];
  if (block === undefined) throw new Error(`ARCHITECTURE.md has no <!-- ${tag} --> block`);
  const names = [...block.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

function folders(path: string): string[] {
  return readdirSync(join(repoRoot, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

describe("ARCHITECTURE.md's map for a newcomer", () => {
  it('lists exactly the API modules that exist', () => {
    expect(listed('modules:api')).toEqual(folders('apps/api/src/modules'));
  });

  it("lists exactly the web app's features that exist", () => {
    expect(listed('features:web')).toEqual(folders('apps/web/src/features'));
  });
});
