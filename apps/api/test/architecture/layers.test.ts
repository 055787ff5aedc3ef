import { describe, expect, it } from 'vitest';
import { backArrows, circles, layerOf, modulesTiedBothWays, sourceGraph } from './layers.ts';

// Issue 32, item 1: the wiring sits at the top (src/job-handlers.ts beside app.ts and worker.ts),
// the job queue is a toolkit under the modules, and no file imports its way back to itself.
describe('the layers of apps/api/src (ARCHITECTURE.md, decision 028)', () => {
  const graph = sourceGraph();

  it('reads the whole source tree', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get('src/job-handlers.ts')).toContain('src/modules/sms/service.ts');
  });

  it('has no import running back up a layer', () => {
    expect(backArrows(graph)).toEqual([]);
  });

  it('has no circle of imports', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('has no two modules importing each other', () => {
    expect(modulesTiedBothWays(graph)).toEqual([]);
  });

  it('finds a circle and an upward import when there is one (the checks can fail)', () => {
    const made = new Map([
      ['src/modules/a/service.ts', ['src/modules/b/service.ts']],
      ['src/modules/b/service.ts', ['src/modules/a/service.ts', 'src/job-handlers.ts']],
      ['src/jobs/jobs.ts', ['src/modules/a/service.ts']],
      ['src/job-handlers.ts', []],
    ]);
    expect(circles(made)).toEqual([['src/modules/a/service.ts', 'src/modules/b/service.ts']]);
    expect(backArrows(made)).toEqual([
      'src/modules/b/service.ts -> src/job-handlers.ts',
      'src/jobs/jobs.ts -> src/modules/a/service.ts',
    ]);
    expect(() => layerOf('src/somewhere-new.ts')).toThrow(/no layer/);
  });

  it('finds two modules tied both ways through different files (the check can fail)', () => {
    const made = new Map([
      ['src/modules/clients/routes.ts', ['src/modules/bets/service.ts']],
      ['src/modules/bets/service.ts', ['src/modules/clients/service.ts']],
      ['src/modules/clients/service.ts', []],
      ['src/modules/bets/routes.ts', ['src/modules/bets/service.ts']],
    ]);
    expect(circles(made)).toEqual([]);
    expect(modulesTiedBothWays(made)).toEqual(['modules/bets <-> modules/clients']);
  });
});
