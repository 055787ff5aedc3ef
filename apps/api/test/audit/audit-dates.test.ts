import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema/index.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let admin: string;
let staff: string;
let adminId: number;

const list = (query: string, token = admin) => t.as(token, { method: 'GET', url: `/api/audit?action=test.day&perPage=50&${query}` });
const idsOf = async (query: string) => {
  const res = await list(query);
  expect(res.statusCode, query).toBe(200);
  const body = res.json();
  expect(body.total_records, query).toBe(body.entries.length);
  return (body.entries as { entity_id: string }[]).map((e) => e.entity_id).sort();
};

// Kenya is UTC+3 all year: Nairobi midnight starting 10 March 2026 is 21:00 UTC on 9 March.
const ROWS: [string, string][] = [
  ['9th-23:59:59', '2026-03-09T20:59:59.000Z'],
  ['10th-00:00', '2026-03-09T21:00:00.000Z'],
  ['10th-00:01', '2026-03-09T21:01:00.000Z'],
  ['10th-23:59:59.999', '2026-03-10T20:59:59.999Z'],
  ['11th-00:00', '2026-03-10T21:00:00.000Z'],
  ['31st-23:59', '2026-03-31T20:59:00.000Z'],
  ['1st-April-00:01', '2026-03-31T21:01:00.000Z'],
];

beforeAll(async () => {
  t = await createTestApp();
  adminId = await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN });
  await t.addUser({ email: 'agent@betdesk.test' });
  admin = await t.tokenFor('boss@betdesk.test');
  staff = await t.tokenFor('agent@betdesk.test');
  await t.deps.db.insert(auditLog).values(
    ROWS.map(([id, at]) => ({ actorUserId: adminId, action: 'test.day', entity: 'setting', entityId: id, at: new Date(at) })),
  );
});
afterAll(() => t.close());

describe('GET /api/audit?from&to (Africa/Nairobi days)', () => {
  it('takes a whole Nairobi day, from its midnight to the last millisecond before the next', async () => {
    expect(await idsOf('from=2026-03-10&to=2026-03-10')).toEqual(['10th-00:00', '10th-00:01', '10th-23:59:59.999'].sort());
  });

  it('takes from without to, and to without from, each side inclusive', async () => {
    expect(await idsOf('to=2026-03-09')).toEqual(['9th-23:59:59']);
    expect(await idsOf('from=2026-03-11')).toEqual(['11th-00:00', '1st-April-00:01', '31st-23:59'].sort());
    expect(await idsOf('from=2026-03-09&to=2026-03-11')).toHaveLength(5);
  });

  it('splits months at Nairobi midnight, not UTC midnight', async () => {
    expect(await idsOf('from=2026-03-31&to=2026-03-31')).toEqual(['31st-23:59']);
    expect(await idsOf('from=2026-04-01&to=2026-04-30')).toEqual(['1st-April-00:01']);
  });

  it('combines the range with the other filters', async () => {
    const res = await t.as(admin, { method: 'GET', url: `/api/audit?action=test.day&user_id=${adminId}&entity=setting&from=2026-03-10&to=2026-03-10` });
    expect(res.json().total_records).toBe(3);
    const nobody = await t.as(admin, { method: 'GET', url: `/api/audit?action=test.day&user_id=${adminId + 1000}&from=2026-03-10&to=2026-03-10` });
    expect(nobody.json().total_records).toBe(0);
  });

  it('answers 422 naming the field for a date that is not a calendar day or not YYYY-MM-DD', async () => {
    for (const [query, field] of [
      ['from=2026-13-01', 'from'],
      ['from=2026-02-29', 'from'],
      ['to=2026-04-31', 'to'],
      ['from=yesterday', 'from'],
      ['from=2026-3-1', 'from'],
      ['to=2026-03-10T00:00', 'to'],
      ['to=10/03/2026', 'to'],
      ['from=2026-03-11&to=2026-03-10', 'to'],
    ] as const) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().errors, query).toHaveProperty(field);
    }
    // A leap day is a day.
    expect((await list('from=2028-02-29&to=2028-02-29')).statusCode).toBe(200);
  });

  it('keeps the date filters to admins', async () => {
    expect((await list('from=2026-03-10&to=2026-03-10', staff)).statusCode).toBe(403);
  });
});
