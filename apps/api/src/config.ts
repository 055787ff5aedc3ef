import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** Every environment variable the product reads, parsed once. README's table mirrors this file. */
const flag = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  // Behind PgBouncer in transaction mode (decision 072): what needs a session of its own (LISTEN, the
  // migrations' advisory lock, pg_dump) connects here, to PostgreSQL itself.
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  // 0 behind a pooler that cannot keep named prepared statements (PgBouncer before 1.21, Debian 12's 1.18).
  DATABASE_PREPARED_STATEMENTS: flag.default(true),
  // How many Betdesk processes (API and workers) share the server: the connection budget's multiplier.
  DATABASE_PROCESSES: z.coerce.number().int().min(1).max(1000).default(1),
  // What the pooler itself opens on the server (PgBouncer's default_pool_size; deploy/pgbouncer).
  DATABASE_POOLER_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(20),
  // A streaming replica for reading work (decision 073): reports, exports, the audit log, big lists.
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  // A replica further behind than this is skipped: its reads go to the primary.
  DATABASE_REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0).max(86_400).default(30),
  DATA_DIR: z.string().min(1).default('./data'),
  ADMIN_EMAIL: z.email().default('admin@betdesk.local'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SEED_DEMO: flag.optional(),
  SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (a 32-byte key)')
    .optional(),
  WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be 16 to 128 letters, digits, - or _')
    .optional(),
  // warn by default: a line per request (info) only when asked, so the start-up banner stays readable.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(\d{1,2}|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/,
      'must be a number of proxy hops (e.g. 1) or comma-separated proxy addresses/CIDRs',
    )
    .optional(),
  REQUIRE_ADMIN_2FA: flag.optional(),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  SMS_PROVIDER: z.enum(['log', 'africastalking']).default('log'),
  SMS_LOG_BALANCE: z.coerce.number().min(0).default(1000),
  SMS_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(500),
  SMS_SEND_RATE: z.coerce.number().int().min(1).max(10_000).default(100),
  AT_USERNAME: z.string().min(1).optional(),
  AT_API_KEY: z.string().min(1).optional(),
  AT_SENDER_ID: z.string().min(1).max(11, 'must be at most 11 characters').optional(),
  AT_SENDER_ID_PROMO: z.string().min(1).max(11, 'must be at most 11 characters').optional(),
  AT_BASE_URL: z.url().optional(),
  // The second aggregator (decision 062): the Advanta family's API, or its in-process fake (demo).
  SMS_FAILOVER_PROVIDER: z.enum(['advanta', 'advanta-fake']).optional(),
  ADVANTA_BASE_URL: z.url().default('https://quicksms.advantasms.com'),
  ADVANTA_API_KEY: z.string().min(1).optional(),
  ADVANTA_PARTNER_ID: z.string().min(1).optional(),
  ADVANTA_SENDER_ID: z.string().min(1).max(11, 'must be at most 11 characters').optional(),
  ADVANTA_SENDER_ID_PROMO: z.string().min(1).max(11, 'must be at most 11 characters').optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  MPESA_BASE_URL: z.url().default('https://sandbox.safaricom.co.ke'),
  MPESA_CONSUMER_KEY: z.string().min(1).optional(),
  MPESA_CONSUMER_SECRET: z.string().min(1).optional(),
  MPESA_SHORTCODE: z.string().regex(/^\d{5,7}$/, 'must be the 5 to 7 digit paybill or store number').optional(),
  MPESA_TILL_NUMBER: z.string().regex(/^\d{5,7}$/, 'must be the 5 to 7 digit till number').optional(),
  MPESA_PASSKEY: z.string().min(1).optional(),
  MPESA_CALLBACK_BASE_URL: z.url().optional(),
  MPESA_TRANSACTION_TYPE: z.enum(['CustomerPayBillOnline', 'CustomerBuyGoodsOnline']).default('CustomerPayBillOnline'),
  MPESA_STK_TIMEOUT_SECONDS: z.coerce.number().int().min(30).max(3600).default(120),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEY: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (a 32-byte key)').optional(),
  BACKUP_CRON: z
    .string()
    .regex(/^(\S+\s+){4}\S+$/, 'must be a cron expression of five fields, e.g. 0 2 * * *')
    .default('0 2 * * *'),
  BACKUP_TIMEZONE: z.string().min(1).default('Africa/Nairobi'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  JOBS: z.enum(['on', 'off']).default('on'),
  ETIMS_BASE_URL: z.url().default('https://etims-api-sbx.kra.go.ke/etims-api'),
  ETIMS_FAKE: flag.default(false),
  ETIMS_LATE_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(24),
  // The sports-data feed (decision 070): API-Football, or its in-process fake (demo); unset: typed legs only.
  SPORTS_FEED_PROVIDER: z.enum(['api-football', 'api-football-fake']).optional(),
  API_FOOTBALL_KEY: z.string().min(1).optional(),
  API_FOOTBALL_BASE_URL: z.url().default('https://v3.football.api-sports.io'),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(25),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).default(0),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** Where LISTEN, migrations and pg_dump connect: DATABASE_DIRECT_URL, else DATABASE_URL. */
  databaseDirectUrl: string | undefined;
  /** Whether the hot paths' statements are prepared by name (off behind PgBouncer before 1.21). */
  databasePreparedStatements: boolean;
  /** Betdesk processes sharing the PostgreSQL server (the connection budget, decision 072). */
  databaseProcesses: number;
  /** DATABASE_POOLER_CONNECTIONS: the pooler's own connections to the server, counted when pooled. */
  databasePoolerConnections: number;
  /** DATABASE_REPLICA_URL: a streaming replica for reading work (decision 073); none when undefined. */
  databaseReplicaUrl: string | undefined;
  /** DATABASE_REPLICA_MAX_LAG_SECONDS: a replica further behind is skipped (30). */
  databaseReplicaMaxLagSeconds: number;
  /** Connections each process keeps to PostgreSQL (10; 20 measured no faster on 2 cores, docs/performance.md). */
  databasePoolSize: number;
  dataDir: string;
  adminEmail: string;
  adminPassword: string | undefined;
  seedDemo: boolean | undefined;
  secretsKey: Buffer;
  webhookSecret: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Which reverse proxies' X-Forwarded-For to believe: none by default, so clients cannot pick their IP. */
  trustProxy: number | string | false;
  sessionTtlHours: number;
  /** An admin without a second factor must enrol one before any other route answers (on in production). */
  requireAdmin2fa: boolean;
  sms: SmsConfig;
  production: boolean;
  mpesa: MpesaConfig;
  backup: BackupConfig;
  /** Bearer token of GET /metrics; the endpoint answers 404 when unset. */
  metricsToken: string | undefined;
  etims: EtimsConfig;
  /** The sports-data feed (SPORTS_FEED_PROVIDER, decision 070); null: none, legs are typed. */
  sportsFeed: SportsFeedConfig | null;
  /** Whether this process runs the job workers (JOBS=off: an API process beside `npm run worker`). */
  jobs: boolean;
  /** How long SIGTERM waits for requests in flight and running jobs before exiting. */
  shutdownTimeoutSeconds: number;
  /** How long /api/ready answers 503 before the server stops accepting (the proxy's health-check interval). */
  shutdownDrainSeconds: number;
};

/**
 * KRA eTIMS (OSCU). The device's own settings (PIN, branch, serial) are the admin's, in tax_device;
 * this is where the interface is and how late an invoice may be before it raises the alert.
 */
export type EtimsConfig = {
  baseUrl: string;
  /** ETIMS_FAKE=1: the in-process fake OSCU answers (development; no KRA account needed). */
  fake: boolean;
  lateAfterHours: number;
};

/** API-Football (its key never logged), or the demo's in-process fake. */
export type SportsFeedConfig = { kind: 'api-football'; baseUrl: string; apiKey: string } | { kind: 'api-football-fake' };

/** Where backups go, when the scheduled one runs, and the key that encrypts them (optional). */
export type BackupConfig = {
  dir: string;
  key: Buffer | undefined;
  cron: string;
  timezone: string;
};

/** Daraja settings. `api` is null unless key, secret, shortcode and callback URL are all given. */
export type MpesaConfig = {
  /**
   * The paybill or store number (head office): the BusinessShortCode of STK pushes and of C2B
   * registration. When set, a C2B payment to a shortcode that is neither this nor the till is
   * refused at validation and, if M-Pesa took it anyway, stored unclaimed with a warning.
   */
  shortcode: string | undefined;
  /** The till (Buy Goods) whose confirmations may carry its own number; STK's PartyB for CustomerBuyGoodsOnline. */
  tillNumber: string | undefined;
  stkTimeoutSeconds: number;
  api: {
    baseUrl: string;
    consumerKey: string;
    consumerSecret: string;
    shortcode: string;
    passkey: string | undefined;
    callbackBaseUrl: string;
    transactionType: 'CustomerPayBillOnline' | 'CustomerBuyGoodsOnline';
    /** PartyB of an STK push: the till for CustomerBuyGoodsOnline, else the shortcode. */
    partyB: string;
  } | null;
};

/** The SMS gateway and the queue's pace. `africasTalking` is set when SMS_PROVIDER=africastalking. */
export type SmsFailoverConfig =
  | { kind: 'advanta'; baseUrl: string; apiKey: string; partnerId: string; senderId: string; promoSenderId: string | undefined }
  | { kind: 'advanta-fake'; senderId: string; promoSenderId: string | undefined };

export type SmsConfig = {
  provider: 'log' | 'africastalking';
  logBalance: number;
  /** Recipients of one text per gateway request. */
  batchSize: number;
  /** Messages per second all dispatchers together send at most (one limit in the database). */
  sendRate: number;
  africasTalking: {
    username: string;
    apiKey: string;
    senderId: string | undefined;
    /** Sender of promotional messages (AT_SENDER_ID_PROMO, else AT_SENDER_ID). */
    promoSenderId: string | undefined;
    baseUrl: string;
  } | null;
  /** The second aggregator the outbox fails over to (SMS_FAILOVER_PROVIDER, decision 062); null: none. */
  failover: SmsFailoverConfig | null;
};

export class ConfigError extends Error {}

/** The shortcodes whose C2B payments are ours: the paybill/store number and the till. Empty: any. */
export function ourShortcodes(mpesa: Pick<MpesaConfig, 'shortcode' | 'tillNumber'>): string[] {
  return [mpesa.shortcode, mpesa.tillNumber].filter((c): c is string => Boolean(c));
}

/**
 * The settings of this install: the variables of BETDESK_ENV_FILE (the file the systemd units name)
 * under the process's own environment, which wins (a unit's PORT=%i, a one-off `LOG_LEVEL=info`).
 * The server, the worker and every operations command read their settings through this, so
 * `BETDESK_ENV_FILE=/etc/betdesk/betdesk.env npm run backup` backs up the database the service uses.
 */
export function settingsEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const file = env.BETDESK_ENV_FILE;
  if (!file) return env;
  return { ...readEnvFile(file), ...env };
}

/**
 * A KEY=VALUE file as systemd's EnvironmentFile and a POSIX shell both read it: `#` comments, blank
 * lines, `export ` allowed, a value in single or double quotes taken literally (BACKUP_CRON="0 2 * * *").
 */
export function readEnvFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  BETDESK_ENV_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const variables: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    const value = match ? unquote(match[2]!) : null;
    if (!match || value === null) {
      throw new ConfigError(`Invalid configuration:\n  ${file} line ${index + 1}: expected NAME=value (quote a value holding spaces or *)`);
    }
    variables[match[1]!] = value;
  });
  return variables;
}

/** A value as a shell would see it, or null when a shell would split or expand it. */
function unquote(value: string): string | null {
  const quoted = /^"([^"\\$`]*)"$/.exec(value) ?? /^'([^']*)'$/.exec(value);
  if (quoted) return quoted[1]!;
  return /^[^\s"'`$*?;&|<>()\\]*$/.test(value) ? value : null;
}

/** Which database the settings point at, for messages: host and name, never the password. */
/** What every process and script opens the database with (decision 072: the direct URL, prepared statements). */
export function databaseOptions(config: Pick<Config, 'databaseUrl' | 'databaseDirectUrl' | 'databasePoolSize' | 'databasePreparedStatements' | 'dataDir'>) {
  return {
    url: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
    dataDir: join(config.dataDir, 'pglite'),
  };
}

/**
 * The replica's connection (decision 073): a pool of its own, at most half the primary's (it serves
 * reading work only), no named statements. Undefined without DATABASE_REPLICA_URL or on PGlite.
 */
export function replicaDatabaseOptions(config: Pick<Config, 'databaseReplicaUrl' | 'databasePoolSize'>) {
  if (!config.databaseReplicaUrl) return undefined;
  return {
    url: config.databaseReplicaUrl,
    directUrl: config.databaseReplicaUrl,
    poolSize: Math.max(2, Math.ceil(config.databasePoolSize / 2)),
    preparedStatements: false,
  };
}

export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `the embedded database in ${resolve(config.dataDir, 'pglite')}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL database "${decodeURIComponent(url.pathname.slice(1)) || url.username || 'postgres'}" on ${url.hostname}:${url.port || '5432'}`;
}

/**
 * Parse the environment. A bad value stops the boot naming the variable. Secrets that are not
 * given are generated once into DATA_DIR (embedded use); production must set them.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const given = Object.fromEntries(Object.entries(settingsEnvironment(env)).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && (!e.SECRETS_KEY || !e.WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  SECRETS_KEY and WEBHOOK_SECRET must be set when NODE_ENV=production',
    );
  }
  if (e.SMS_FAILOVER_PROVIDER === 'advanta' && (!e.ADVANTA_API_KEY || !e.ADVANTA_PARTNER_ID || !e.ADVANTA_SENDER_ID)) {
    throw new ConfigError(
      'Invalid configuration:\n  ADVANTA_API_KEY, ADVANTA_PARTNER_ID and ADVANTA_SENDER_ID must be set when SMS_FAILOVER_PROVIDER=advanta',
    );
  }
  if (e.SPORTS_FEED_PROVIDER === 'api-football' && !e.API_FOOTBALL_KEY) {
    throw new ConfigError('Invalid configuration:\n  API_FOOTBALL_KEY must be set when SPORTS_FEED_PROVIDER=api-football');
  }
  if (e.SMS_PROVIDER === 'africastalking' && (!e.AT_USERNAME || !e.AT_API_KEY)) {
    throw new ConfigError('Invalid configuration:\n  AT_USERNAME and AT_API_KEY must be set when SMS_PROVIDER=africastalking');
  }
  if (e.MPESA_TRANSACTION_TYPE === 'CustomerBuyGoodsOnline' && e.MPESA_CONSUMER_KEY && !e.MPESA_TILL_NUMBER) {
    throw new ConfigError(
      'Invalid configuration:\n  MPESA_TILL_NUMBER must be set when MPESA_TRANSACTION_TYPE=CustomerBuyGoodsOnline (STK PartyB is the till)',
    );
  }
  const dataDir = resolve(e.DATA_DIR);
  const local = e.SECRETS_KEY && e.WEBHOOK_SECRET ? null : localSecrets(dataDir);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databaseProcesses: e.DATABASE_PROCESSES,
    databasePoolerConnections: e.DATABASE_POOLER_CONNECTIONS,
    databaseReplicaUrl: e.DATABASE_URL ? e.DATABASE_REPLICA_URL : undefined,
    databaseReplicaMaxLagSeconds: e.DATABASE_REPLICA_MAX_LAG_SECONDS,
    dataDir,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO,
    secretsKey: Buffer.from(e.SECRETS_KEY ?? local!.secretsKey, 'hex'),
    webhookSecret: e.WEBHOOK_SECRET ?? local!.webhookSecret,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY ? (/^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY) : false,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    requireAdmin2fa: e.REQUIRE_ADMIN_2FA ?? production,
    sms: {
      provider: e.SMS_PROVIDER,
      logBalance: e.SMS_LOG_BALANCE,
      batchSize: e.SMS_BATCH_SIZE,
      sendRate: e.SMS_SEND_RATE,
      africasTalking:
        e.SMS_PROVIDER === 'africastalking'
          ? {
              username: e.AT_USERNAME!,
              apiKey: e.AT_API_KEY!,
              senderId: e.AT_SENDER_ID,
              promoSenderId: e.AT_SENDER_ID_PROMO ?? e.AT_SENDER_ID,
              baseUrl:
                e.AT_BASE_URL ??
                (e.AT_USERNAME === 'sandbox' ? 'https://api.sandbox.africastalking.com' : 'https://api.africastalking.com'),
            }
          : null,
      failover:
        e.SMS_FAILOVER_PROVIDER === 'advanta'
          ? {
              kind: 'advanta' as const,
              baseUrl: e.ADVANTA_BASE_URL,
              apiKey: e.ADVANTA_API_KEY!,
              partnerId: e.ADVANTA_PARTNER_ID!,
              senderId: e.ADVANTA_SENDER_ID!,
              promoSenderId: e.ADVANTA_SENDER_ID_PROMO,
            }
          : e.SMS_FAILOVER_PROVIDER === 'advanta-fake'
            ? { kind: 'advanta-fake' as const, senderId: e.ADVANTA_SENDER_ID ?? 'BETDESK', promoSenderId: e.ADVANTA_SENDER_ID_PROMO ?? 'BETDESK-OFR' }
            : null,
    },
    production,
    mpesa: {
      shortcode: e.MPESA_SHORTCODE,
      tillNumber: e.MPESA_TILL_NUMBER,
      stkTimeoutSeconds: e.MPESA_STK_TIMEOUT_SECONDS,
      api:
        e.MPESA_CONSUMER_KEY && e.MPESA_CONSUMER_SECRET && e.MPESA_SHORTCODE && e.MPESA_CALLBACK_BASE_URL
          ? {
              baseUrl: e.MPESA_BASE_URL.replace(/\/+$/, ''),
              consumerKey: e.MPESA_CONSUMER_KEY,
              consumerSecret: e.MPESA_CONSUMER_SECRET,
              shortcode: e.MPESA_SHORTCODE,
              passkey: e.MPESA_PASSKEY,
              callbackBaseUrl: e.MPESA_CALLBACK_BASE_URL.replace(/\/+$/, ''),
              transactionType: e.MPESA_TRANSACTION_TYPE,
              partyB:
                e.MPESA_TRANSACTION_TYPE === 'CustomerBuyGoodsOnline' ? e.MPESA_TILL_NUMBER! : e.MPESA_SHORTCODE,
            }
          : null,
    },
    backup: {
      dir: resolve(e.BACKUP_DIR ?? resolve(dataDir, 'backups')),
      key: e.BACKUP_KEY ? Buffer.from(e.BACKUP_KEY, 'hex') : undefined,
      cron: e.BACKUP_CRON,
      timezone: e.BACKUP_TIMEZONE,
    },
    metricsToken: e.METRICS_TOKEN,
    etims: { baseUrl: e.ETIMS_BASE_URL.replace(/\/+$/, ''), fake: e.ETIMS_FAKE, lateAfterHours: e.ETIMS_LATE_HOURS },
    sportsFeed:
      e.SPORTS_FEED_PROVIDER === 'api-football'
        ? { kind: 'api-football', baseUrl: e.API_FOOTBALL_BASE_URL.replace(/\/+$/, ''), apiKey: e.API_FOOTBALL_KEY! }
        : e.SPORTS_FEED_PROVIDER === 'api-football-fake'
          ? { kind: 'api-football-fake' }
          : null,
    jobs: e.JOBS === 'on',
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
  };
}

/** A short public fingerprint of SECRETS_KEY: tells two keys apart without revealing either. */
export function secretsKeyFingerprint(key: Buffer): string {
  return createHash('sha256').update('betdesk:secrets-key:').update(key).digest('hex').slice(0, 16);
}

/**
 * The SECRETS_KEY an install uses, read without generating one (restore must not invent a key):
 * SECRETS_KEY, else the key generated into DATA_DIR/local-secrets.json, else null.
 */
export function existingSecretsKey(processEnv: NodeJS.ProcessEnv = process.env): Buffer | null {
  const env = settingsEnvironment(processEnv);
  if (env.SECRETS_KEY && /^[0-9a-fA-F]{64}$/.test(env.SECRETS_KEY)) return Buffer.from(env.SECRETS_KEY, 'hex');
  const file = resolve(env.DATA_DIR || './data', 'local-secrets.json');
  if (!existsSync(file)) return null;
  return Buffer.from((JSON.parse(readFileSync(file, 'utf8')) as { secretsKey: string }).secretsKey, 'hex');
}

/** Secrets generated on first start of an embedded install, kept beside its database. */
function localSecrets(dataDir: string): { secretsKey: string; webhookSecret: string } {
  const file = resolve(dataDir, 'local-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  mkdirSync(dataDir, { recursive: true });
  const secrets = {
    secretsKey: randomBytes(32).toString('hex'),
    webhookSecret: randomBytes(24).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
