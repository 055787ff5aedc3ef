import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** apps/api, the root every path in a graph is relative to. */
export const apiRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The files a module loads, read by the TypeScript compiler's own import scanner (static imports,
 * `export ... from`, dynamic `import()` with a literal path), following relative paths only:
 * packages are not part of the app's structure. Keys and values are paths relative to apps/api.
 */
export function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [resolve(apiRoot, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    const key = relative(apiRoot, file);
    if (graph.has(key)) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name))
      .filter((target) => target.endsWith('.ts') && existsSync(target));
    graph.set(key, targets.map((target) => relative(apiRoot, target)));
    pending.push(...targets);
  }
  return graph;
}

/** One chain of imports from the graph's entry to `target` (for a readable failure). */
export function pathTo(graph: Map<string, string[]>, entry: string, target: string): string[] {
  const seen = new Set([entry]);
  const queue: string[][] = [[entry]];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const last = path[path.length - 1]!;
    if (last === target) return path;
    for (const next of graph.get(last) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...path, next]);
      }
    }
  }
  return [];
}
