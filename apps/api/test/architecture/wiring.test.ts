import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRoot, importGraph, pathTo } from './import-graph.ts';

const routeFiles = readdirSync(join(apiRoot, 'src/modules'))
  .map((name) => `src/modules/${name}/routes.ts`)
  .filter((file) => existsSync(join(apiRoot, file)));

describe('the app composed from the top (decision 028)', () => {
  it('loads no HTTP route, no app and no Fastify instance in the worker', () => {
    const worker = importGraph('src/worker.ts');
    const loaded = [...worker.keys()].filter(
      (file) => /^src\/modules\/[^/]+\/routes\.ts$/.test(file) || ['src/app.ts', 'src/server.ts', 'src/http/fastify.ts', 'src/http/web.ts'].includes(file),
    );
    expect(loaded.map((file) => pathTo(worker, 'src/worker.ts', file).join(' -> '))).toEqual([]);
    // The walk is real: the worker does reach the jobs and the services they run.
    expect(worker.has('src/job-handlers.ts')).toBe(true);
    expect(worker.has('src/modules/mpesa/service.ts')).toBe(true);
  });

  it("registers every module's routes from src/app.ts", () => {
    const app = importGraph('src/app.ts');
    expect(routeFiles.length).toBeGreaterThan(20);
    expect(routeFiles.filter((file) => !app.get('src/app.ts')!.includes(file))).toEqual([]);
  });

  it('keeps http/ a toolkit: nothing under it imports a module or the app', () => {
    const app = importGraph('src/app.ts');
    const upward = [...app.entries()]
      .filter(([file]) => file.startsWith('src/http/'))
      .flatMap(([file, imports]) => imports.filter((i) => i.startsWith('src/modules/') || i === 'src/app.ts').map((i) => `${file} -> ${i}`));
    expect(upward).toEqual([]);
  });

  it('has no module importing the app or the server', () => {
    const app = importGraph('src/app.ts');
    const upward = [...app.entries()]
      .filter(([file]) => file.startsWith('src/modules/'))
      .flatMap(([file, imports]) => imports.filter((i) => ['src/app.ts', 'src/server.ts', 'src/main.ts'].includes(i)).map((i) => `${file} -> ${i}`));
    expect(upward).toEqual([]);
  });
});
