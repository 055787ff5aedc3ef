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
  { name: 'modules', matches: (f) => f.startsWith('src/modules/') || f.startsWith('src/customer-texts/') },
  { name: 'toolkits', matches: (f) => f.startsWith('src/http/') || f.startsWith('src/jobs/') || f.startsWith('src/integrations/') || f === 'src/deps.ts' },
  { name: 'ground', matches: (f) => f.startsWith('src/db/') || f.startsWith('src/lib/') || f === 'src/config.ts' },
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
