import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let admin: string;
let staff: string;
let clientId: number;

const list = (query: string, token = admin) => t.as(token, { method: 'GET', url: `/api/audit?${query}` });

beforeAll(async () => {
  t = await createTestApp();
  await t.addUser({ email: 'boss@betdesk.test', categoryId: ADMIN, name: 'Boss Admin' });
  await t.addUser({ email: 'agent@betdesk.test' });
  admin = await t.tokenFor('boss@betdesk.test');
  staff = await t.tokenFor('agent@betdesk.test');
  const created = await t.as(admin, {
    method: 'POST',
    url: '/api/clients/store',
    payload: { name: 'Faith Wambui', phone: '0799 111 222', maximum_stake: 2500, passwords: [{ platform: 'SportPesa', password: 's3cret!' }] },
  });
  expect(created.statusCode).toBe(200);
  clientId = created.json().client_id;
  // Two reads of personal data: the passwords revealed on the profile, everything held about a phone exported.
  expect((await t.as(admin, { method: 'GET', url: `/api/clients/show?client_id=${clientId}` })).statusCode).toBe(200);
  expect((await t.as(admin, { method: 'GET', url: '/api/privacy/subject?phone=0799111222' })).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('the "sensitive" filter of the audit screen', () => {
  it('lists the password reveals and privacy exports only, newest first', async () => {
    const res = await list('sensitive=1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.entries.map((e: { action: string }) => e.action)).toEqual(['privacy.export', 'client.passwords-reveal']);
    expect(body.total_records).toBe(2);
    expect(body.entries[1]).toMatchObject({ entity: 'client', entity_id: String(clientId), user_name: 'Boss Admin' });
    // Without the filter the trail also holds the client's creation.
    expect((await list('')).json().entries.map((e: { action: string }) => e.action)).toContain('client.create');
  });

  it('combines with the other filters', async () => {
    const res = await list(`sensitive=1&entity=client&entity_id=${clientId}`);
    expect(res.json().entries.map((e: { action: string }) => e.action)).toEqual(['client.passwords-reveal']);
    expect((await list('sensitive=1&action=client.create')).json().total_records).toBe(0);
  });

  it('refuses a value other than 1, naming the field, and staff', async () => {
    const res = await list('sensitive=yes');
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['sensitive']);
    expect((await list('sensitive=1', staff)).statusCode).toBe(403);
  });
});
