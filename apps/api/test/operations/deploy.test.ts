import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderNginxSite } from '../../../../deploy/render-nginx.ts';
import { ConfigError, EnvSchema, loadConfig, readEnvFile } from '../../src/config.ts';

const root = new URL('../../../../', import.meta.url);

describe('deploy/', () => {
  it('the environment template lists every variable the server reads (PORT is set per unit)', () => {
    const template = readFileSync(new URL('deploy/betdesk.env.example', root), 'utf8');
    const listed = new Set([...template.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const missing = Object.keys(EnvSchema.shape).filter((name) => name !== 'PORT' && name !== 'JOBS' && !listed.has(name));
    expect(missing).toEqual([]);
  });

  it('the nginx site balances the given API processes, passes live updates unbuffered and serves the assets from disk', () => {
    const site = renderNginxSite({ api: ['127.0.0.1:3001', '127.0.0.1:3002'], webDist: '/opt/betdesk/apps/web/dist', serverName: 'betdesk.example.com', tlsCert: '/c.pem', tlsKey: '/k.pem' });
    expect(site).toContain('server 127.0.0.1:3001');
    expect(site).toContain('server 127.0.0.1:3002');
    expect(site).toMatch(/location = \/api\/events \{[^}]*proxy_buffering off;/);
    expect(site).toContain('root /opt/betdesk/apps/web/dist;');
    // One Cache-Control on hashed assets: nginx's `expires` would add its own beside add_header's.
    const assets = /location \/assets\/ \{[^}]*\}/.exec(site)![0];
    expect(assets.match(/add_header Cache-Control /g)).toHaveLength(1);
    expect(assets).not.toMatch(/\bexpires\b/);
    expect(site).toContain('ssl_certificate /c.pem;');
    expect(site).toContain('return 301 https://$host$request_uri;');
    expect(site).not.toMatch(/\{\{\w+\}\}/);
    expect(() => renderNginxSite({ api: ['not an address'], webDist: '/x' })).toThrow(/host:port/);
    expect(() => renderNginxSite({ api: [], webDist: '/x' })).toThrow();
  });

  it('the environment template reads the same in a shell as in Betdesk (a cron value is quoted)', () => {
    const file = fileURLToPath(new URL('deploy/betdesk.env.example', root));
    const ours = readEnvFile(file);
    const names = Object.keys(ours);
    const script = `set -a; . "$1"; shift; for n in "$@"; do eval "printf '%s\\0' \\"\\$$n\\""; done`;
    const shell = execFileSync('sh', ['-c', script, 'sh', file, ...names], { encoding: 'utf8' }).split('\0').slice(0, -1);
    expect(Object.fromEntries(names.map((name, i) => [name, shell[i]]))).toEqual(ours);
    expect(ours.BACKUP_CRON).toBe('0 2 * * *');
  });

  it('the systemd units name the settings file and give a stopping process more than drain + timeout', () => {
    const defaults = readEnvFile(fileURLToPath(new URL('deploy/betdesk.env.example', root)));
    const drain = Number(defaults.SHUTDOWN_DRAIN_SECONDS);
    const timeout = Number(defaults.SHUTDOWN_TIMEOUT_SECONDS);
    for (const [unit, needs] of [
      ['betdesk-api@.service', drain + timeout],
      ['betdesk-worker.service', timeout],
    ] as const) {
      const text = readFileSync(new URL(`deploy/systemd/${unit}`, root), 'utf8');
      expect(text).toContain('Environment=BETDESK_ENV_FILE=/etc/betdesk/betdesk.env');
      expect(text).not.toMatch(/^EnvironmentFile=/m);
      expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(text)![1])).toBeGreaterThan(needs);
    }
  });
});

describe('docs/OPERATIONS.md', () => {
  it("creates every database owned by the service's role, so a restore as that role can load into it", () => {
    const runbook = readFileSync(new URL('docs/OPERATIONS.md', root), 'utf8');
    const creates = runbook.split('\n').filter((line) => /^\s*(sudo -u postgres )?createdb\b/.test(line));
    expect(creates.length).toBeGreaterThanOrEqual(2);
    for (const line of creates) expect(line).toMatch(/createdb -O betdesk /);
  });
});

describe('BETDESK_ENV_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-env-'));
  const file = (text: string) => {
    const path = join(dir, `${Math.random().toString(36).slice(2)}.env`);
    writeFileSync(path, text);
    return path;
  };

  it("gives every command the service's settings, the process's own variables winning", () => {
    const settings = file(
      '# production\nDATABASE_URL=postgres://betdesk@db.internal:5432/betdesk\nexport LOG_LEVEL=error\nBACKUP_CRON="30 1 * * *"\nPORT=3000\n',
    );
    const config = loadConfig({ BETDESK_ENV_FILE: settings, PORT: '3002', DATA_DIR: dir, SECRETS_KEY: '1'.repeat(64), WEBHOOK_SECRET: 'a-webhook-secret-0123' });
    expect(config.databaseUrl).toBe('postgres://betdesk@db.internal:5432/betdesk');
    expect(config.logLevel).toBe('error');
    expect(config.backup.cron).toBe('30 1 * * *');
    expect(config.port).toBe(3002);
  });

  it('refuses a line a shell would read differently, naming the file and line', () => {
    const settings = file('NODE_ENV=production\nBACKUP_CRON=0 2 * * *\n');
    expect(() => loadConfig({ BETDESK_ENV_FILE: settings })).toThrow(ConfigError);
    expect(() => loadConfig({ BETDESK_ENV_FILE: settings })).toThrow(`${settings} line 2`);
  });

  it('refuses a settings file that is not there', () => {
    expect(() => loadConfig({ BETDESK_ENV_FILE: join(dir, 'missing.env') })).toThrow(/BETDESK_ENV_FILE: cannot read .*missing\.env \(ENOENT\)/);
    rmSync(dir, { recursive: true, force: true });
  });
});
