import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { jobHandlers } from '../../src/job-handlers.ts';
import { applyRetention } from '../../src/modules/backups/service.ts';
import type { AppDeps } from '../../src/deps.ts';

/** A backup file name as the nightly job writes it, for a UTC time. */
const nameAt = (iso: string) => `betdesk-${iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-postgres.sql.gz`;

describe('the nightly backup', () => {
  it('runs at 02:00 Nairobi time by default', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/betdesk-test-data', SECRETS_KEY: '0'.repeat(64), WEBHOOK_SECRET: 'test-webhook-secret-0123' });
    const job = jobHandlers({ config } as AppDeps).find((h) => h.queue === 'backup');
    expect(job).toMatchObject({ cron: '0 2 * * *', tz: 'Africa/Nairobi' });
  });

  it('keeps the newest backup of each of the last 7 days and of each of the last 4 weeks, and deletes the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'betdesk-retention-'));
    try {
      // 40 nights of backups at 02:00 Nairobi (23:00 UTC the day before), plus an extra one on the last day.
      const names: string[] = [];
      for (let i = 0; i < 40; i++) {
        const at = new Date(Date.UTC(2026, 10, 24, 23, 0, 0) - i * 86_400_000).toISOString();
        names.push(nameAt(at));
      }
      names.push(nameAt('2026-11-25T08:00:00.000Z')); // "Back up now" the same Nairobi day as the newest nightly one
      for (const name of names) writeFileSync(join(dir, name), name);

      const removed = applyRetention(dir, 'Africa/Nairobi');
      const kept = readdirSync(dir).sort().reverse();
      // Nairobi days 25 Nov (the 11:00 one, the newest of that day), 24 … 19 Nov: 7 days.
      const daily = [nameAt('2026-11-25T08:00:00.000Z'), ...[1, 2, 3, 4, 5, 6].map((i) => nameAt(new Date(Date.UTC(2026, 10, 24, 23) - i * 86_400_000).toISOString()))];
      for (const name of daily) expect(kept).toContain(name);
      // Weeks (Monday to Sunday, Nairobi): the newest of each of the 4 newest weeks is kept; the older weeks go.
      expect(kept.length).toBeLessThanOrEqual(7 + 4);
      expect(kept.length).toBeGreaterThanOrEqual(8);
      expect(kept).not.toContain(nameAt(new Date(Date.UTC(2026, 10, 24, 23) - 39 * 86_400_000).toISOString()));
      expect(removed.length + kept.length).toBe(names.length);
      // The newest nightly of 25 Nov lost to the later "Back up now" of the same day.
      expect(kept).not.toContain(nameAt(new Date(Date.UTC(2026, 10, 24, 23)).toISOString()));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
