import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetPasswordByEmail } from '../../src/modules/auth/service.ts';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers.ts';

/** Issue 14 item 12: `npm run reset-password -- --email E` for a lost admin password. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.addUser({ email: 'lost@example.com', categoryId: ADMIN, name: 'Lost Admin' });
});
afterAll(() => t.close());

describe('reset password by email', () => {
  it('sets the new password, ends the old sessions and writes the audit log', async () => {
    const oldToken = await t.tokenFor('lost@example.com');
    const reset = await resetPasswordByEmail(t.deps.db, ' LOST@example.com ', 'a-brand-new-password');
    expect(reset).toMatchObject({ name: 'Lost Admin' });

    const old = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'lost@example.com', password: TEST_PASSWORD } });
    expect(old.statusCode).toBe(422);
    expect(await t.tokenFor('lost@example.com', 'a-brand-new-password')).toEqual(expect.any(String));
    const me = await t.as(oldToken, { method: 'POST', url: '/api/auth/refresh' });
    expect(me.statusCode).toBe(401);

    const audit = await t.deps.database.executeSql(`select action, entity, entity_id from audit_log where action = 'user.password-reset'`);
    expect(JSON.stringify(audit)).toContain(String(reset!.userId));
  });

  it('answers null for an email no live user has', async () => {
    expect(await resetPasswordByEmail(t.deps.db, 'nobody@example.com', 'whatever-password')).toBeNull();
  });
});
