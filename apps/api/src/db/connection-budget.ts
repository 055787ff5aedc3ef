/**
 * The connection budget (decision 072): what all Betdesk processes together may open on the
 * PostgreSQL server, against the connections the server takes. Each process states its share at
 * boot; past 80 % it warns, past 100 % it refuses to start, naming the variables to change.
 */

export interface BudgetInputs {
  /** DATABASE_PROCESSES: API processes and workers on this server. */
  processes: number;
  /** DATABASE_POOL_SIZE: the process's own pool. */
  pool: number;
  /** pg-boss's pool of this process. */
  jobs: number;
  /** The LISTEN connection of the live updates (one per process). */
  listener: number;
  /** The pool and pg-boss connect through a pooler (DATABASE_DIRECT_URL set apart from DATABASE_URL). */
  pooled: boolean;
  /** DATABASE_POOLER_CONNECTIONS: what the pooler itself opens on the server (its default_pool_size). */
  poolerConnections: number;
  /** The server's max_connections and superuser_reserved_connections. */
  maxConnections: number;
  reserved: number;
}

export interface Budget {
  /** Connections this process opens on the server itself. */
  share: number;
  /** What every process (and the pooler) opens on the server together. */
  total: number;
  /** What the server takes from non-superusers. */
  limit: number;
  /** total ÷ limit, in whole per cent. */
  percent: number;
  verdict: 'ok' | 'warn' | 'refuse';
  /** One line for the boot log. */
  line: string;
}

export const BUDGET_WARN_SHARE = 0.8;

export function connectionBudget(b: BudgetInputs): Budget {
  const limit = Math.max(1, b.maxConnections - b.reserved);
  const share = b.pooled ? b.listener : b.pool + b.jobs + b.listener;
  const total = b.processes * share + (b.pooled ? b.poolerConnections : 0);
  const percent = Math.round((total / limit) * 100);
  const verdict = total > limit ? 'refuse' : total > BUDGET_WARN_SHARE * limit ? 'warn' : 'ok';
  const formula = b.pooled
    ? `DATABASE_PROCESSES ${b.processes} × listener ${b.listener} + DATABASE_POOLER_CONNECTIONS ${b.poolerConnections} (pool ${b.pool} and jobs ${b.jobs} go through the pooler)`
    : `DATABASE_PROCESSES ${b.processes} × (DATABASE_POOL_SIZE ${b.pool} + jobs ${b.jobs} + listener ${b.listener})`;
  const against = `max_connections ${b.maxConnections} − superuser_reserved_connections ${b.reserved} = ${limit}`;
  const line =
    verdict === 'refuse'
      ? `Connection budget exceeded: ${formula} = ${total} connections, more than the server takes (${against}). Lower DATABASE_POOL_SIZE or DATABASE_PROCESSES, put PgBouncer in front (DATABASE_URL to it, DATABASE_DIRECT_URL to PostgreSQL), or raise max_connections.`
      : `connection budget: ${formula} = ${total} of ${limit} (${percent} %; ${against})`;
  return { share, total, limit, percent, verdict, line };
}
