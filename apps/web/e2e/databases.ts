import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where each browser spec runs in CI (decision 083). `npm run e2e` alone runs every spec; with
 * E2E_CI_SPLIT=1 (set by .ci/run, which runs the suite once on PGlite and once on PostgreSQL side by
 * side) a run keeps the specs marked `both` and those whose CI home is its own database.
 *
 * - `both`: what the spec proves depends on the database's own behaviour (SQL aggregates and date
 *   arithmetic shown as figures, server-side sorting and search, the CSV export's cursor, the live
 *   updates' LISTEN/NOTIFY, the backup's pg_dump against PGlite's dump).
 * - `pglite`: the spec's tests run on a server of their own (support.ts startOwnServer), which is a
 *   fresh PGlite whatever the run's database: on the PostgreSQL run they only repeated the PGlite run.
 * - `postgres`: the spec tests the UI over the API, and the database under the API does not change
 *   what it proves (the API suite runs on both databases); it runs on PostgreSQL, production's.
 */
export type SpecHome = 'both' | 'pglite' | 'postgres';

export const specHomes: Record<string, SpecHome> = {
  // Database-dependent: run on both.
  'backups.spec.ts': 'both', // pg_dump on PostgreSQL, PGlite's data-directory dump on PGlite
  'bet4me.spec.ts': 'both', // paging 2,000 clients and finding one by phone: counts, offsets, search in SQL
  'reconciliation.spec.ts': 'both', // a statement's receipts matched against stored payments, imported in one transaction
  'reports.spec.ts': 'both', // income by week and cohort figures from SQL aggregates and date arithmetic, the CSV export
  'search.spec.ts': 'both', // prefix and phone search in SQL
  'staff-tools.spec.ts': 'both', // a live update (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite), the audit trail
  'tables.spec.ts': 'both', // server-side sorting (collation), Nairobi date ranges, totals and the export
  // Own server (PGlite whatever the run's database): once, on PGlite.
  'accessibility.spec.ts': 'pglite', // axe-core over the screens; the portal part on its own server
  'admin-grants.spec.ts': 'pglite',
  'auto-renew.spec.ts': 'pglite',
  'books.spec.ts': 'pglite',
  'portal.spec.ts': 'pglite', // the 3G part reads the shared server's public pages: markup, not data
  'portal-pause.spec.ts': 'pglite',
  'promo-codes.spec.ts': 'pglite',
  'trials.spec.ts': 'pglite',
  'refunds.spec.ts': 'pglite',
  'self-exclusion.spec.ts': 'pglite',
  'sms-failover.spec.ts': 'pglite',
  'sms-gateway.spec.ts': 'pglite',
  'sports-feed.spec.ts': 'pglite',
  'tax.spec.ts': 'pglite',
  'two-factor.spec.ts': 'pglite',
  // The UI over the API: once, on PostgreSQL.
  'agents.spec.ts': 'postgres',
  'catalogue.spec.ts': 'postgres',
  'compliance.spec.ts': 'postgres',
  'daily-use.spec.ts': 'postgres',
  'first-load.spec.ts': 'postgres', // bytes and caching of the static build
  'foundation.spec.ts': 'postgres',
  'mpesa.spec.ts': 'postgres',
  'payments-daily-use.spec.ts': 'postgres',
  'portal-trust.spec.ts': 'postgres',
  'privacy.spec.ts': 'postgres',
  'promotions.spec.ts': 'postgres',
  'screens.spec.ts': 'postgres', // layout at 1366 and 360 px
  'self-service.spec.ts': 'postgres',
  'settings.spec.ts': 'postgres',
  'sms-cost.spec.ts': 'postgres', // the composer's part count, computed in the browser
  'sms.spec.ts': 'postgres',
  'staff-day.spec.ts': 'postgres',
  'table-columns.spec.ts': 'postgres', // layout
  'table-scroll.spec.ts': 'postgres', // the browser's frame rate
  'tips-record.spec.ts': 'postgres',
  'tips.spec.ts': 'postgres',
};

/**
 * The spec files this run keeps: every one, or with `split` those for `database`. Throws when a file
 * in specs/ has no home here (or a home names a file that is gone), so no spec is lost from CI.
 */
export function specsToRun(database: 'pglite' | 'postgres', split: boolean): string[] {
  const dir = fileURLToPath(new URL('./specs', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.spec.ts')).sort();
  const missing = files.filter((f) => !(f in specHomes));
  const gone = Object.keys(specHomes).filter((f) => !files.includes(f));
  if (missing.length > 0 || gone.length > 0) {
    throw new Error(
      `apps/web/e2e/databases.ts must name every spec exactly: without a home ${missing.join(', ') || '-'}; gone ${gone.join(', ') || '-'}`,
    );
  }
  return split ? files.filter((f) => specHomes[f] === 'both' || specHomes[f] === database) : files;
}
