import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { apiRoot, importGraph } from './import-graph.ts';

/**
 * The API's layers, top first (ARCHITECTURE.md's map): what starts the process and wires it; the
 * business modules; the toolkits modules use (HTTP, the job queue, the integrations); the ground
 * (database, configuration, small libraries). An import may go down or sideways, never up.
 */
export const layers: { name: string; matches: (file: string) => boolean }[] = [
  {
    name: 'top',
    matches: (f) => ['src/main.ts', 'src/worker.ts', 'src/process-start.ts', 'src/server.ts', 'src/app.ts', 'src/bootstrap.ts', 'src/job-handlers.ts'].includes(f) || f.startsWith('src/seed/'),
  },
  { name: 'modules', matches: (f) => f.startsWith('src/modules/') },
  { name: 'toolkits', matches: (f) => f.startsWith('src/http/') || f.startsWith('src/jobs/') || f.startsWith('src/integrations/') || f === 'src/deps.ts' },
  // The customer-texts catalogue is ground: every module reads it, it reads no module (decision 057).
  { name: 'ground', matches: (f) => f.startsWith('src/db/') || f.startsWith('src/lib/') || f.startsWith('src/customer-texts/') || f === 'src/config.ts' },
];

export function layerOf(file: string): number {
  const index = layers.findIndex((layer) => layer.matches(file));
  if (index < 0) throw new Error(`${file} is in no layer of test/architecture/layers.ts`);
  return index;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [relative(apiRoot, path)] : [];
  });
}

/** The import graph of every file under apps/api/src (relative imports only). */
export function sourceGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(join(apiRoot, 'src'))) {
    for (const [key, imports] of importGraph(file)) if (!graph.has(key)) graph.set(key, imports);
  }
  return graph;
}

/** Imports that run back up: from a file to a file of a higher layer, as `from -> to`. */
export function backArrows(graph: Map<string, string[]>): string[] {
  return [...graph.entries()].flatMap(([file, imports]) =>
    imports.filter((target) => layerOf(target) < layerOf(file)).map((target) => `${file} -> ${target}`),
  );
}

/** The circles of the graph (strongly connected groups of two or more files), each sorted. */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** The module a file belongs to: `modules/<name>` for a business module, else its top folder or file. */
export function moduleOf(file: string): string {
  return file.match(/^src\/(modules\/[^/]+|[^/]+)(?:\/|$)/)?.[1] ?? file;
}

/**
 * Pairs of modules that import each other (each through any of its files), as `a <-> b` sorted: a
 * tie the file-level circle check cannot see when the two imports run through different files.
 */
export function modulesTiedBothWays(graph: Map<string, string[]>): string[] {
  const imports = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [moduleOf(file), moduleOf(target)];
      if (from !== to) imports.set(from, (imports.get(from) ?? new Set()).add(to));
    }
  }
  const pairs = [...imports].flatMap(([a, targets]) => [...targets].filter((b) => a < b && imports.get(b)?.has(a)).map((b) => `${a} <-> ${b}`));
  return pairs.sort();
}
