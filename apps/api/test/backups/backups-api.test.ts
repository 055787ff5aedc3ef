import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { sha256 } from '../../src/modules/backups/archive.ts';

let t: TestApp;
let dir: string;
let admin: string;
let staff: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'betdesk-backups-'));
  t = await createTestApp({ env: { BACKUP_DIR: dir } });
  await t.addUser({ email: 'admin@x.test', categoryId: ADMIN });
  await t.addUser({ email: 'staff@x.test' });
  admin = await t.tokenFor('admin@x.test');
  staff = await t.tokenFor('staff@x.test');
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

it('lets an admin back up now, list the backup as verified and download it; staff may not', async () => {
  expect((await t.as(staff, { method: 'GET', url: '/api/backups' })).statusCode).toBe(403);
  expect((await t.as(staff, { method: 'POST', url: '/api/backups' })).statusCode).toBe(403);

  const made = await t.as(admin, { method: 'POST', url: '/api/backups' });
  expect(made.statusCode).toBe(200);
  const backup = made.json().backup;
  expect(backup.verified).toBe(true);

  const list = await t.as(admin, { method: 'GET', url: '/api/backups' });
  expect(list.json().backups.map((b: { name: string }) => b.name)).toEqual([backup.name]);
  expect(list.json().health).toMatchObject({ alert: null, last_failure: null });

  const file = await t.as(admin, { method: 'GET', url: `/api/backups/download?name=${encodeURIComponent(backup.name)}` });
  expect(file.statusCode).toBe(200);
  expect(sha256(file.rawPayload)).toBe(backup.file_sha256);
  expect((await t.as(admin, { method: 'GET', url: '/api/backups/download?name=..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
}, 60_000);

it('raises the alert when the last backup failed or none succeeded for 26 hours', async () => {
  await t.deps.db.execute(sql`update backup_runs set finished_at = now() - interval '27 hours'`);
  const late = await t.as(admin, { method: 'GET', url: '/api/backups/health' });
  expect(late.json().alert).toMatch(/more than 26 hours/);
  await t.deps.db.execute(sql`insert into backup_runs (trigger, finished_at, ok, error) values ('schedule', now(), false, 'disk full')`);
  const failed = await t.as(admin, { method: 'GET', url: '/api/backups/health' });
  expect(failed.json().alert).toMatch(/last backup failed \(disk full\)/);
});
