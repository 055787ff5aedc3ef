/**
 * npm run deploy:nginx -- --api 127.0.0.1:3001,127.0.0.1:3002 --web-dist /opt/betdesk/apps/web/dist
 *   --server-name betdesk.example.com --tls-cert /etc/letsencrypt/live/…/fullchain.pem --tls-key …/privkey.pem
 * Prints the nginx site for Betdesk (deploy/nginx/betdesk.conf.template) with the marks filled.
 * Without --tls-cert it listens on plain HTTP (--port, 80 by default): for a test or a TLS terminator in front.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

export interface NginxSite {
  /** host:port of each API process. */
  api: string[];
  webDist: string;
  serverName?: string;
  /** Plain-HTTP port when no certificate is given. */
  port?: number;
  tlsCert?: string;
  tlsKey?: string;
}

const template = new URL('./nginx/betdesk.conf.template', import.meta.url);

export function renderNginxSite(site: NginxSite): string {
  if (site.api.length === 0) throw new Error('--api needs at least one host:port');
  for (const address of site.api) {
    if (!/^[\w.-]+:\d{1,5}$/.test(address)) throw new Error(`--api: "${address}" is not host:port`);
  }
  if (Boolean(site.tlsCert) !== Boolean(site.tlsKey)) throw new Error('--tls-cert and --tls-key go together');
  const serverName = site.serverName ?? '_';
  const tls = Boolean(site.tlsCert);
  const marks: Record<string, string> = {
    API_SERVERS: site.api.map((a) => `    server ${a} max_fails=1 fail_timeout=5s;`).join('\n'),
    SERVER_NAME: serverName,
    WEB_DIST: site.webDist,
    LISTEN: tls ? '    listen 443 ssl http2;\n    listen [::]:443 ssl http2;' : `    listen ${site.port ?? 80};`,
    TLS: tls
      ? [
          `    ssl_certificate ${site.tlsCert};`,
          `    ssl_certificate_key ${site.tlsKey};`,
          '    ssl_protocols TLSv1.2 TLSv1.3;',
          '    ssl_session_cache shared:betdesk_tls:10m;',
          '    add_header Strict-Transport-Security "max-age=31536000" always;',
        ].join('\n')
      : '',
    HTTP_REDIRECT: tls
      ? `server {\n    listen 80;\n    listen [::]:80;\n    server_name ${serverName};\n    return 301 https://$host$request_uri;\n}\n`
      : '',
  };
  return readFileSync(template, 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, key: string) => {
    const value = marks[key];
    if (value === undefined) throw new Error(`Unknown mark {{${key}}} in the nginx template`);
    return value;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      api: { type: 'string' },
      'web-dist': { type: 'string' },
      'server-name': { type: 'string' },
      port: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
    },
  });
  if (!values.api || !values['web-dist']) {
    console.error('Usage: npm run deploy:nginx -- --api host:port[,host:port…] --web-dist DIR [--server-name NAME] [--tls-cert F --tls-key F | --port N]');
    process.exit(2);
  }
  try {
    process.stdout.write(
      renderNginxSite({
        api: values.api.split(',').map((a) => a.trim()).filter(Boolean),
        webDist: values['web-dist'],
        ...(values['server-name'] ? { serverName: values['server-name'] } : {}),
        ...(values.port ? { port: Number(values.port) } : {}),
        ...(values['tls-cert'] ? { tlsCert: values['tls-cert'] } : {}),
        ...(values['tls-key'] ? { tlsKey: values['tls-key'] } : {}),
      }),
    );
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}
