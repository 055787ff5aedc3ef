import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_BUDGET_BYTES, filesOfRoute, overBudget, routeSize, type Manifest } from './route-sizes.ts';

/** A build of three screens: the entry, a shared framework chunk, a login screen and an editor screen. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-aaaaaaaa.js',
    isEntry: true,
    imports: ['_react-bbbbbbbb.js'],
    dynamicImports: ['src/login-page.tsx', 'src/editor-page.tsx'],
  },
  '_react-bbbbbbbb.js': { file: 'assets/react-bbbbbbbb.js' },
  'src/login-page.tsx': { file: 'assets/login-page-cccccccc.js', isDynamicEntry: true, imports: ['_react-bbbbbbbb.js', '_Input-dddddddd.js'] },
  '_Input-dddddddd.js': { file: 'assets/Input-dddddddd.js', css: ['assets/Input.css'] },
  'src/editor-page.tsx': { file: 'assets/editor-page-eeeeeeee.js', isDynamicEntry: true, imports: ['_editor-ffffffff.js'] },
  '_editor-ffffffff.js': { file: 'assets/editor-ffffffff.js' },
  // A lazy chunk other chunks share modules of: rollup keys it by its file, not its source.
  '_alerts-gggggggg.js': { file: 'assets/alerts-gggggggg.js', name: 'alerts', isDynamicEntry: true, imports: ['_react-bbbbbbbb.js'] },
};

const sizes: Record<string, number> = {
  'assets/index-aaaaaaaa.js': 60_000,
  'assets/react-bbbbbbbb.js': 100_000,
  'assets/login-page-cccccccc.js': 5_000,
  'assets/Input-dddddddd.js': 3_000,
  'assets/editor-page-eeeeeeee.js': 4_000,
  'assets/editor-ffffffff.js': 150_000,
};
const sizeOf = (file: string) => ({ raw: (sizes[file] ?? 0) * 3, gzip: sizes[file] ?? 0 });

describe('first-load size of a route', () => {
  it('counts the entry, the screen and their static imports once, never the other screens', () => {
    expect(filesOfRoute(manifest, 'src/login-page.tsx').sort()).toEqual([
      'assets/Input-dddddddd.js',
      'assets/index-aaaaaaaa.js',
      'assets/login-page-cccccccc.js',
      'assets/react-bbbbbbbb.js',
    ]);
    expect(routeSize(manifest, '/login', 'src/login-page.tsx', sizeOf).gzipBytes).toBe(168_000);
  });

  it('passes a route under the budget and names a route over it', () => {
    const login = routeSize(manifest, '/login', 'src/login-page.tsx', sizeOf);
    const editor = routeSize(manifest, '/tips/posts/add', 'src/editor-page.tsx', sizeOf);
    expect(login.gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
    expect(overBudget([login])).toEqual([]);
    expect(overBudget([login, editor])).toEqual([
      '/tips/posts/add loads 306.6 kB of gzip JavaScript, over the budget of 250.0 kB',
    ]);
  });

  it("holds a route with its own budget to that one (the post form, its editor loaded later)", () => {
    const form = { route: '/tips/posts/add', files: 30, gzipBytes: 240 * 1024, rawBytes: 0 };
    expect(overBudget([form])).toEqual([]);
    expect(overBudget([{ ...form, route: '/clients' }])).toEqual(['/clients loads 240.0 kB of gzip JavaScript, over the budget of 200.0 kB']);
  });

  it("holds the admin's dashboard, its alerts included, to the first-load budget of 200 kB", () => {
    const admin = { route: '/dashboard (admin)', files: 19, gzipBytes: 200 * 1024, rawBytes: 0 };
    expect(overBudget([admin])).toEqual([]);
    expect(overBudget([{ ...admin, gzipBytes: 201 * 1024 }])).toEqual(['/dashboard (admin) loads 201.0 kB of gzip JavaScript, over the budget of 200.0 kB']);
  });

  it('counts the lazy chunks a screen asks for as it draws, as the browser fetches them', () => {
    const alone = filesOfRoute(manifest, 'src/editor-page.tsx');
    const drawn = filesOfRoute(manifest, ['src/login-page.tsx', 'src/editor-page.tsx']);
    expect(drawn.sort()).toEqual([...new Set([...filesOfRoute(manifest, 'src/login-page.tsx'), ...alone])].sort());
    expect(filesOfRoute(manifest, ['src/login-page.tsx', 'src/features/alerts.tsx'])).toContain('assets/alerts-gggggggg.js');
    expect(routeSize(manifest, '/both', ['src/login-page.tsx', 'src/editor-page.tsx'], sizeOf).gzipBytes).toBe(
      drawn.reduce((sum, file) => sum + sizeOf(file).gzip, 0),
    );
  });

  it('refuses a manifest that does not hold the screen asked for', () => {
    expect(() => filesOfRoute(manifest, 'src/missing-page.tsx')).toThrow(/no chunk src\/missing-page.tsx/);
  });
});
