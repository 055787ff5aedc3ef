/**
 * npm run deploy:pgbouncer -- --database betdesk [--server 127.0.0.1:5432] [--port 6432]
 *   [--pool-size 20] [--max-client-conn 200] [--prepared-statements 200]
 * Prints /etc/pgbouncer/pgbouncer.ini for Betdesk (deploy/pgbouncer/pgbouncer.ini.template) with the
 * marks filled: transaction mode, the pool DATABASE_POOLER_CONNECTIONS counts (decision 072).
 * --prepared-statements only for PgBouncer 1.21 or later (Debian 12's is 1.18: leave it out and set
 * DATABASE_PREPARED_STATEMENTS=0).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

export interface PgBouncerConfig {
  database: string;
  /** PostgreSQL itself, host:port. */
  server?: string;
  listenAddr?: string;
  port?: number;
  poolSize?: number;
  maxClientConn?: number;
  /** max_prepared_statements (PgBouncer 1.21+); absent: the line is left out. */
  preparedStatements?: number;
  authType?: 'scram-sha-256' | 'md5' | 'trust';
  authFile?: string;
  logfile?: string;
  pidfile?: string;
  adminUser?: string;
}

const template = new URL('./pgbouncer/pgbouncer.ini.template', import.meta.url);

export function renderPgBouncer(c: PgBouncerConfig): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(c.database)) throw new Error(`--database: "${c.database}" is not a plain database name`);
  const [host, port] = (c.server ?? '127.0.0.1:5432').split(':');
  if (!host || !/^\d{1,5}$/.test(port ?? '')) throw new Error(`--server: "${c.server}" is not host:port`);
  const marks: Record<string, string> = {
    DATABASE: c.database,
    SERVER_HOST: host,
    SERVER_PORT: port!,
    LISTEN_ADDR: c.listenAddr ?? '127.0.0.1',
    LISTEN_PORT: String(c.port ?? 6432),
    AUTH_TYPE: c.authType ?? 'scram-sha-256',
    AUTH_FILE: c.authFile ?? '/etc/pgbouncer/userlist.txt',
    POOL_SIZE: String(c.poolSize ?? 20),
    MAX_CLIENT_CONN: String(c.maxClientConn ?? 200),
    PREPARED_STATEMENTS: c.preparedStatements ? `max_prepared_statements = ${c.preparedStatements}` : '; max_prepared_statements: PgBouncer 1.21+ only',
    LOGFILE: c.logfile ?? '/var/log/postgresql/pgbouncer.log',
    PIDFILE: c.pidfile ?? '/var/run/postgresql/pgbouncer.pid',
    ADMIN_USER: c.adminUser ?? 'postgres',
  };
  return readFileSync(template, 'utf8').replace(/\{\{([A-Z_]+)\}\}/g, (_, mark: string) => {
    if (!(mark in marks)) throw new Error(`pgbouncer template: unknown mark ${mark}`);
    return marks[mark]!;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      database: { type: 'string', default: 'betdesk' },
      server: { type: 'string' },
      port: { type: 'string' },
      'pool-size': { type: 'string' },
      'max-client-conn': { type: 'string' },
      'prepared-statements': { type: 'string' },
    },
  });
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  process.stdout.write(
    renderPgBouncer({
      database: values.database!,
      server: values.server,
      port: num(values.port),
      poolSize: num(values['pool-size']),
      maxClientConn: num(values['max-client-conn']),
      preparedStatements: num(values['prepared-statements']),
    }),
  );
}
