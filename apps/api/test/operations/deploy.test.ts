import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { renderNginxSite } from '../../../../deploy/render-nginx.ts';
import { EnvSchema } from '../../src/config.ts';

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
    expect(site).toContain('ssl_certificate /c.pem;');
    expect(site).toContain('return 301 https://$host$request_uri;');
    expect(site).not.toMatch(/\{\{\w+\}\}/);
    expect(() => renderNginxSite({ api: ['not an address'], webDist: '/x' })).toThrow(/host:port/);
    expect(() => renderNginxSite({ api: [], webDist: '/x' })).toThrow();
  });
});
