import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { exportScenarios, readScenarios, type Fixtures } from '../../../../bench/scenarios.ts';
import { percentile } from '../../../../bench/run.ts';

/**
 * The bench's scenarios stay in step with the API: each one calls a GET route of the contract with a
 * query that route accepts, and each bare-SQL floor is valid SQL over the current schema (checked by
 * EXPLAIN on a migrated database, so a renamed column breaks this test, not the lead's scale-1 run).
 */
const fixtures: Fixtures = {
  staffId: 3,
  busyClientId: 1,
  staffClientId: 20,
  staffHasNoClient: false,
  smsClientId: 2,
  staffSmsClientId: 40,
  busySubscriberId: 5,
  surname: "O'tieno_%",
  phone: '0712345678',
  receipt: 'SAB1234567',
  recordCategoryId: 2,
};

let database: Database;

beforeAll(async () => {
  database = await openDatabase({});
  await database.migrate();
});

afterAll(async () => {
  await database.close();
});

describe('bench scenarios', () => {
  it('have unique names', () => {
    const names = [...readScenarios, ...exportScenarios].map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(readScenarios.map((s) => [s.name, s] as const))('%s calls a GET route with a query it accepts', (_name, s) => {
    expect(s.endpoint.method).toBe('GET');
    for (const role of ['admin', 'staff'] as const) {
      const params = { ...(s.params?.(fixtures, role) ?? {}), ...(s.paged ? { page: '1', perPage: '2000' } : {}) };
      const stringly = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
      if (s.endpoint.query) expect(s.endpoint.query.safeParse(stringly).success).toBe(true);
      else expect(Object.keys(params).filter((k) => k !== 'page' && k !== 'perPage')).toEqual([]);
    }
  });

  it.each(exportScenarios.map((s) => [s.name, s] as const))('%s is a CSV export of the contract', (_name, s) => {
    expect(s.endpoint.path).toMatch(/\/export$/);
    const params = Object.fromEntries(Object.entries(s.params?.(fixtures) ?? {}).map(([k, v]) => [k, String(v)]));
    if (s.endpoint.query) expect(s.endpoint.query.safeParse(params).success).toBe(true);
  });

  it.each(readScenarios.filter((s) => s.floor).map((s) => [s.name, s] as const))('%s has a floor that is valid SQL', async (_name, s) => {
    for (const role of ['admin', 'staff'] as const) {
      const { rows } = await database.executeSql(`explain ${s.floor!({ f: fixtures, role, limit: 50, offset: 100 })}`);
      expect(rows.length).toBeGreaterThan(0);
    }
  });

  it('takes percentiles by nearest rank', () => {
    const sorted = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(10);
    expect(percentile(sorted, 95)).toBe(19);
    expect(percentile(sorted, 99)).toBe(20);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
