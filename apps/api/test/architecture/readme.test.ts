import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot } from './import-graph.ts';

const repoRoot = join(apiRoot, '../..');
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const engines = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);

describe('the README, as a newcomer reads it', () => {
  it('states the Node.js version package.json asks for', () => {
    expect(engines).toMatch(/^>=\d+\.\d+$/);
    expect(readme).toContain(`Node.js ${engines.slice(2)} or later`);
  });

  it('says how long the first start and the tests take', () => {
    const opening = readme.slice(0, readme.indexOf('## Configuration'));
    expect(opening).toMatch(/first `npm start` a few\s+minutes/);
    expect(opening).toMatch(/`npm test` most of an\s+hour/);
  });

  it('puts Configuration before Benchmarks, and the other scripts in a table', () => {
    expect(headings.indexOf('Configuration')).toBeGreaterThan(-1);
    expect(headings.indexOf('Configuration')).toBeLessThan(headings.indexOf('Benchmarks'));
    const scripts = readme.slice(readme.indexOf('## Other scripts'), readme.indexOf('## Benchmarks'));
    expect(scripts).toContain('| command | what it does |');
    const rows = scripts.split('\n').filter((line) => line.startsWith('| `npm run'));
    expect(rows.length).toBeGreaterThanOrEqual(12);
  });
});
