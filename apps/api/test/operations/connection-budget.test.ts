import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { connectionBudget } from '../../src/db/connection-budget.ts';

const server = { maxConnections: 100, reserved: 3 };

describe('the connection budget (decision 072)', () => {
  it('counts each process as its pool, its job pool and its listener, against max_connections less the reserved ones', () => {
    const budget = connectionBudget({ processes: 4, pool: 10, jobs: 3, listener: 1, pooled: false, poolerConnections: 20, ...server });
    expect(budget).toMatchObject({ share: 14, total: 56, limit: 97, percent: 58, verdict: 'ok' });
    expect(budget.line).toContain('DATABASE_PROCESSES 4 × (DATABASE_POOL_SIZE 10 + jobs 3 + listener 1) = 56 of 97');
  });

  it('warns past 80 % of what the server takes', () => {
    const budget = connectionBudget({ processes: 6, pool: 10, jobs: 3, listener: 1, pooled: false, poolerConnections: 20, ...server });
    expect(budget).toMatchObject({ total: 84, verdict: 'warn' });
  });

  it('refuses past 100 %, naming the variables to change', () => {
    const budget = connectionBudget({ processes: 7, pool: 10, jobs: 3, listener: 1, pooled: false, poolerConnections: 20, ...server });
    expect(budget).toMatchObject({ total: 98, verdict: 'refuse' });
    expect(budget.line).toMatch(/^Connection budget exceeded: .*= 98 connections, more than the server takes/);
    for (const variable of ['DATABASE_POOL_SIZE', 'DATABASE_PROCESSES', 'DATABASE_DIRECT_URL', 'max_connections']) expect(budget.line).toContain(variable);
  });

  it('behind a pooler counts only the listeners and the pooler’s own connections', () => {
    const budget = connectionBudget({ processes: 40, pool: 10, jobs: 3, listener: 1, pooled: true, poolerConnections: 20, ...server });
    expect(budget).toMatchObject({ share: 1, total: 60, verdict: 'ok' });
    expect(budget.line).toContain('DATABASE_POOLER_CONNECTIONS 20');
  });

  it('reads the direct URL, prepared statements and the process count from the environment', () => {
    const pooled = loadConfig({
      DATABASE_URL: 'postgres://betdesk@127.0.0.1:6432/betdesk',
      DATABASE_DIRECT_URL: 'postgres://betdesk@127.0.0.1:5432/betdesk',
      DATABASE_PREPARED_STATEMENTS: '0',
      DATABASE_PROCESSES: '4',
      DATA_DIR: '/tmp/betdesk-budget-test',
    });
    expect(pooled).toMatchObject({
      databaseDirectUrl: 'postgres://betdesk@127.0.0.1:5432/betdesk',
      databasePreparedStatements: false,
      databaseProcesses: 4,
      databasePoolerConnections: 20,
    });
    const direct = loadConfig({ DATABASE_URL: 'postgres://betdesk@127.0.0.1:5432/betdesk', DATA_DIR: '/tmp/betdesk-budget-test' });
    expect(direct).toMatchObject({ databaseDirectUrl: 'postgres://betdesk@127.0.0.1:5432/betdesk', databasePreparedStatements: true, databaseProcesses: 1 });
  });
});
