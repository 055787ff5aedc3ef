/**
 * What each route downloads before it draws: the entry chunk, the route's own lazy chunk, and
 * every chunk they import statically (what the browser fetches, modulepreloads included), as
 * gzip bytes read from the build's manifest.
 *
 *   node --import tsx apps/web/build/route-sizes.ts          # print the table
 *   node --import tsx apps/web/build/route-sizes.ts --check  # and fail over the budget (npm test)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** Gzip JavaScript allowed for the first screen of a route (decision 016: /login and /dashboard). */
export const FIRST_LOAD_BUDGET_BYTES = 200 * 1024;

/**
 * A route's own budget where the first-load one does not fit.
 * - The post form (decisions 019 and 067) draws with a plain content box and fetches the rich-text
 *   editor (about 165 kB gzip of Tiptap and ProseMirror) when the box is first used, its upload dialog
 *   when asked for: 250 kB, the figure the browser counts on a cold load (first-load.spec.ts).
 * The admin's dashboard, with the admin alerts it fetches as it draws, is held to the first-load
 * budget like the others (one request and one small schema for every alert, decision 078).
 */
export const routeBudgets: Record<string, number> = {
  '/tips/posts/add': 250 * 1024,
};

/**
 * Routes held to a budget (the check fails over it): the source file of their screen, and with it the
 * lazy chunks the screen asks for as it draws, so the count is what the browser fetches on a cold load.
 */
export const budgetedRoutes: Record<string, string | string[]> = {
  '/login': 'src/features/auth/components/login-page.tsx',
  '/dashboard': 'src/features/dashboard/components/dashboard-page.tsx',
  '/dashboard (admin)': ['src/features/dashboard/components/dashboard-page.tsx', 'src/features/dashboard/components/admin-alerts.tsx'],
  '/tips/posts/add': 'src/features/tips-posts/components/add-post-page.tsx',
};

/**
 * The manifest's key of a source file's chunk. A lazy chunk whose modules other chunks share loses its
 * source key (rollup keys it `_<name>-<hash>.js`): it is then found by its name among the lazy chunks.
 */
function chunkKeyOf(manifest: Manifest, key: string): string {
  if (manifest[key]) return key;
  const name = key.split('/').pop()!.replace(/\.tsx?$/, '');
  return Object.keys(manifest).find((k) => manifest[k]?.isDynamicEntry && manifest[k]?.name === name) ?? key;
}

/** The JavaScript files one screen loads: entry + screen chunk (and the lazy chunks it draws with) + their static imports. */
export function filesOfRoute(manifest: Manifest, screenKey: string | string[] | null): string[] {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The manifest has no entry chunk');
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest has no chunk ${key}`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  for (const key of screenKey === null ? [] : [screenKey].flat()) visit(chunkKeyOf(manifest, key));
  return [...files].filter((file) => file.endsWith('.js'));
}

export interface RouteSize {
  route: string;
  files: number;
  gzipBytes: number;
  rawBytes: number;
}

export function routeSize(
  manifest: Manifest,
  route: string,
  screenKey: string | string[] | null,
  sizeOf: (file: string) => { raw: number; gzip: number },
): RouteSize {
  const files = filesOfRoute(manifest, screenKey);
  let gzipBytes = 0;
  let rawBytes = 0;
  for (const file of files) {
    const size = sizeOf(file);
    gzipBytes += size.gzip;
    rawBytes += size.raw;
  }
  return { route, files: files.length, gzipBytes, rawBytes };
}

/** Routes over their budget (their own, else `budget`), with the words the check prints. */
export function overBudget(sizes: RouteSize[], budget = FIRST_LOAD_BUDGET_BYTES): string[] {
  return sizes.flatMap((size) => {
    const limit = routeBudgets[size.route] ?? budget;
    return size.gzipBytes > limit ? [`${size.route} loads ${kb(size.gzipBytes)} of gzip JavaScript, over the budget of ${kb(limit)}`] : [];
  });
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

/** Every screen of the build: its route source files (lazy chunks) by name. */
export function screens(manifest: Manifest): string[] {
  return Object.keys(manifest)
    .filter((key) => manifest[key]?.isDynamicEntry && /-page\.tsx$/.test(key))
    .sort();
}

function main(): number {
  const dist = fileURLToPath(new URL('../dist/', import.meta.url));
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    console.error('No build manifest: run `npm run build` first.');
    return 1;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const cache = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let size = cache.get(file);
    if (!size) {
      const content = readFileSync(join(dist, file));
      size = { raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
      cache.set(file, size);
    }
    return size;
  };
  const budgeted = Object.entries(budgetedRoutes).map(([route, key]) => routeSize(manifest, route, key, sizeOf));
  const all = process.argv.includes('--all')
    ? screens(manifest).map((key) => routeSize(manifest, key.replace(/^src\/features\//, ''), key, sizeOf))
    : [];
  for (const size of [...budgeted, ...all]) {
    console.log(`${size.route.padEnd(60)} ${kb(size.gzipBytes).padStart(9)} gzip  ${kb(size.rawBytes).padStart(9)} raw  ${size.files} files`);
  }
  if (process.argv.includes('--check')) {
    const failures = overBudget(budgeted);
    for (const failure of failures) console.error(failure);
    if (failures.length > 0) return 1;
    const own = Object.entries(routeBudgets).map(([route, bytes]) => `${route} ${kb(bytes)}`);
    console.log(`Budgets kept: every budgeted route is under ${kb(FIRST_LOAD_BUDGET_BYTES)} of gzip JavaScript (${own.join(', ')}).`);
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main());
