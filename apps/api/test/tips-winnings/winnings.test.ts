import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../src/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { signedInStaff } from '../tips-fixtures/reference.ts';

let t: TestApp;
let admin: string;
let staff: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, staff } = await signedInStaff(t));
});
afterAll(() => t.close());

const save = (token: string | null, content: unknown) =>
  t.as(token, { method: 'POST', url: '/api/tips/winnings/update', payload: { content } });

describe('Winnings & Results', () => {
  it('is empty at first', async () => {
    const res = await t.as(staff, { method: 'GET', url: '/api/tips/winnings/update' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ content: '' });
  });

  it("saves the content with the spec's text, for staff and admins, audited", async () => {
    const res = await save(staff, '<h2>Weekend</h2><p>8 of 10 tips won</p>');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: 'Winnings Updated successfully' });
    expect((await save(admin, '<h2>Weekend</h2><p>9 of 10 tips won</p>')).statusCode).toBe(200);
    const read = await t.as(staff, { method: 'GET', url: '/api/tips/winnings/update' });
    expect(read.json()).toEqual({ content: '<h2>Weekend</h2><p>9 of 10 tips won</p>' });
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'winnings.update'));
    expect(audits).toHaveLength(2);
    expect(audits[1]!.before).toEqual({ content: '<h2>Weekend</h2><p>8 of 10 tips won</p>' });
  });

  it('refuses a script tag, naming the field, and keeps the saved content', async () => {
    const res = await save(staff, '<p>Won</p><SCRIPT src="https://evil.example/x.js"></SCRIPT>');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ content: ['The content may not contain scripts'] });
    const read = await t.as(staff, { method: 'GET', url: '/api/tips/winnings/update' });
    expect(read.json().content).toBe('<h2>Weekend</h2><p>9 of 10 tips won</p>');
  });

  it('sanitizes other markup on save', async () => {
    await save(staff, '<p style="x" onmouseover="steal()">Won <object data="x"></object><img src=x onerror=steal()></p>');
    const read = await t.as(staff, { method: 'GET', url: '/api/tips/winnings/update' });
    expect(read.json().content).toBe('<p>Won </p>');
  });

  it('refuses content that is not text, and anonymous callers', async () => {
    const res = await save(staff, 42);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['content']);
    expect((await save(null, '<p>x</p>')).statusCode).toBe(401);
    expect((await t.as(null, { method: 'GET', url: '/api/tips/winnings/update' })).statusCode).toBe(401);
  });
});
