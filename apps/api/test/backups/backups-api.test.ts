import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN, createTestApp, type TestApp } from '../helpers.ts';
import { sha256 } from '../../src/modules/backups/archive.ts';
import { DOWNLOAD_TICKET_SECONDS, issueDownloadTicket } from '../../src/modules/backups/download-ticket.ts';

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

it('downloads a backup through a signed link a minute long, audited; an altered, expired or staff link is refused', async () => {
  const made = (await t.as(admin, { method: 'POST', url: '/api/backups' })).json().backup;
  const asked = { method: 'POST' as const, url: '/api/backups/download-link', payload: { name: made.name } };
  expect((await t.as(staff, asked)).statusCode).toBe(403);
  expect((await t.as(admin, { ...asked, payload: { name: 'betdesk-20260101T000000Z-pglite.sql.gz' } })).statusCode).toBe(404);
  const link = await t.as(admin, asked);
  expect(link.statusCode).toBe(200);
  const { url, expires_at } = link.json();
  expect(url).toMatch(/^\/api\/backups\/file\?ticket=/);
  expect(new Date(expires_at).getTime() - Date.now()).toBeLessThanOrEqual(DOWNLOAD_TICKET_SECONDS * 1000);

  // The link works with no bearer header at all (a browser following it natively).
  const file = await t.as(null, { method: 'GET', url });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-disposition']).toBe(`attachment; filename="${made.name}"`);
  expect(Number(file.headers['content-length'])).toBe(made.size_bytes);
  expect(sha256(file.rawPayload)).toBe(made.file_sha256);
  const trail = await t.deps.database.executeSql(`select entity_id from audit_log where action = 'backup.download'`);
  expect(trail.rows.map((r) => r.entity_id)).toContain(made.name);

  const ticket = decodeURIComponent(url.split('ticket=')[1]);
  const [payload, signed] = ticket.split('.') as [string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  const otherFile = Buffer.from(JSON.stringify({ ...claims, n: '../../etc/passwd' })).toString('base64url');
  const altered = await t.as(null, { method: 'GET', url: `/api/backups/file?ticket=${encodeURIComponent(`${otherFile}.${signed}`)}` });
  expect(altered.statusCode).toBe(403);
  const old = issueDownloadTicket(t.deps.config.secretsKey, made.name, 1, Date.now() - (DOWNLOAD_TICKET_SECONDS + 1) * 1000);
  const expired = await t.as(null, { method: 'GET', url: `/api/backups/file?ticket=${encodeURIComponent(old.ticket)}` });
  expect(expired.statusCode).toBe(403);
  expect(expired.json().info).toMatch(/expired/);
  expect((await t.as(null, { method: 'GET', url: '/api/backups/file' })).statusCode).toBe(422);
}, 60_000);

it('raises the alert when the last backup failed or none succeeded for 26 hours', async () => {
  await t.deps.db.execute(sql`update backup_runs set finished_at = now() - interval '27 hours'`);
  const late = await t.as(admin, { method: 'GET', url: '/api/backups/health' });
  expect(late.json().alert).toMatch(/more than 26 hours/);
  await t.deps.db.execute(sql`insert into backup_runs (trigger, finished_at, ok, error) values ('schedule', now(), false, 'disk full')`);
  const failed = await t.as(admin, { method: 'GET', url: '/api/backups/health' });
  expect(failed.json().alert).toMatch(/last backup failed \(disk full\)/);
});
