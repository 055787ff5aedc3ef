import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where each browser spec runs in CI (decisions 083 and 097). `npm run e2e` alone runs every spec; with
 * CI_SPLIT=1 (set by .ci/run, which runs the suite once on PGlite and once on PostgreSQL side by
 * side) a run keeps the specs marked `both` and those whose CI home is its own database.
 *
 * - `both`: what the spec proves depends on the database's own behaviour (SQL aggregates and date
 *   arithmetic shown as figures, server-side sorting and search, the CSV export's cursor, the live
 *   updates' LISTEN/NOTIFY, the backup's pg_dump against PGlite's dump).
 * - `own`: every test of the spec runs on a server of its own (support.ts startOwnServer), a fresh
 *   PGlite whatever the run's database, so it runs once. Its home is the PGlite run, whose browser
 *   half is otherwise the shorter (the PostgreSQL run has the `postgres` specs; decision 099), in a
 *   Playwright project beside the shared server's specs: nothing of the shared server's is read or
 *   written, so the two go at once.
 * - `postgres`: the spec tests the UI over the API (on the shared server, or partly on its own), and
 *   the database under the API does not change what it proves (the API suite runs on both
 *   databases); it runs on PostgreSQL, production's.
 */
export type SpecHome = 'both' | 'own' | 'postgres';

export const specHomes: Record<string, SpecHome> = {
  // Database-dependent: run on both.
  'backups.spec.ts': 'both', // pg_dump on PostgreSQL, PGlite's data-directory dump on PGlite
  'bet4me.spec.ts': 'both', // paging 2,000 clients and finding one by phone: counts, offsets, search in SQL
  'reconciliation.spec.ts': 'both', // a statement's receipts matched against stored payments, imported in one transaction
  'reports.spec.ts': 'both', // income by week and cohort figures from SQL aggregates and date arithmetic, the CSV export
  'search.spec.ts': 'both', // prefix and phone search in SQL
  'staff-tools.spec.ts': 'both', // a live update (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite), the audit trail
  'tables.spec.ts': 'both', // server-side sorting (collation), Nairobi date ranges, totals and the export
  // Every test on its own server (PGlite whatever the run's database): once, beside the shared server's.
  'admin-grants.spec.ts': 'own',
  'auto-renew.spec.ts': 'own',
  'books.spec.ts': 'own',
  'portal-pause.spec.ts': 'own',
  'promo-codes.spec.ts': 'own',
  'trials.spec.ts': 'own',
  'refunds.spec.ts': 'own',
  'self-exclusion.spec.ts': 'own',
  'sms-failover.spec.ts': 'own',
  'sms-gateway.spec.ts': 'own',
  'sports-feed.spec.ts': 'own',
  'tax.spec.ts': 'own',
  'two-factor.spec.ts': 'own',
  // The UI over the API: once, on PostgreSQL.
  'accessibility.spec.ts': 'postgres', // axe-core over the shared server's screens; the portal part on its own server
  'portal.spec.ts': 'postgres', // on its own server but for the 3G part, which reads the shared server's public pages
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

/** Every spec file, checked against the homes above. */
function specFiles(): string[] {
  const dir = fileURLToPath(new URL('./specs', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.spec.ts')).sort();
  const missing = files.filter((f) => !(f in specHomes));
  const gone = Object.keys(specHomes).filter((f) => !files.includes(f));
  if (missing.length > 0 || gone.length > 0) {
    throw new Error(
      `apps/web/e2e/databases.ts must name every spec exactly: without a home ${missing.join(', ') || '-'}; gone ${gone.join(', ') || '-'}`,
    );
  }
  return files;
}

/**
 * The `postgres` specs that run on the second shared server (decision 100): with every spec on one
 * server, one at a time, the PostgreSQL run's browser half was its longest step (about 550 s of tests),
 * so its shared specs are split between two servers of the same demo data, each one at a time. These
 * are about half of that time (the staff screens' axe-core audit alone is about 140 s). The `both`
 * specs stay on the first server, so the PGlite run, whose shared specs are only those, starts one.
 */
export const onSecondServer = new Set([
  'accessibility.spec.ts',
  'daily-use.spec.ts',
  'foundation.spec.ts',
  'promotions.spec.ts',
  'screens.spec.ts',
  'self-service.spec.ts',
  'sms-cost.spec.ts',
  'staff-day.spec.ts',
  'tips.spec.ts',
]);

/**
 * The spec files this run keeps, as Playwright's projects: `shared` and `shared-2` (the specs on each
 * shared server, one at a time, since they share its data) and `own` (those whose every test has a
 * server of its own). Every spec without `split`; with it, `both` and this database's homes. Throws
 * when a file in specs/ has no home here (or a home names a file that is gone), so no spec is lost.
 */
export function specsToRun(database: 'pglite' | 'postgres', split: boolean): { shared: string[]; shared2: string[]; own: string[] } {
  const files = specFiles();
  // Split, each run keeps the specs where the database matters, and the PGlite run those on servers of
  // their own, the PostgreSQL run those over the shared server (decision 099).
  const home = (f: string) => specHomes[f];
  const kept = !split
    ? files
    : files.filter((f) => home(f) === 'both' || home(f) === (database === 'pglite' ? 'own' : 'postgres'));
  const onShared = kept.filter((f) => specHomes[f] !== 'own');
  for (const f of onSecondServer) {
    if (specHomes[f] !== 'postgres') throw new Error(`apps/web/e2e/databases.ts: ${f} is on the second server but its home is ${specHomes[f] ?? 'none'}`);
  }
  return {
    shared: onShared.filter((f) => !onSecondServer.has(f)),
    shared2: onShared.filter((f) => onSecondServer.has(f)),
    own: kept.filter((f) => specHomes[f] === 'own'),
  };
}
