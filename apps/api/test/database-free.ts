/**
 * The API test files that open no database: what they prove is the same on PGlite and on PostgreSQL.
 * CI runs the suite on both side by side (.ci/run, CI_SPLIT=1), and these run once, in its PostgreSQL
 * run, whose unit step is the shorter (decision 101). A plain `npm test` runs them on whichever
 * database it has.
 *
 * test/architecture/database-free.test.ts checks that none of them, nor a test module they import,
 * mentions a database.
 */
export const DATABASE_FREE_FILES = [
  'test/architecture/decisions.test.ts',
  'test/architecture/layers.test.ts',
  'test/architecture/lint-rules.test.ts',
  'test/architecture/map.test.ts',
  'test/architecture/no-issue-numbers.test.ts',
  'test/architecture/own-process.test.ts',
  'test/architecture/readme.test.ts',
  'test/architecture/refusal-texts.test.ts',
  'test/architecture/rule-homes.test.ts',
  'test/architecture/scope-door.test.ts',
  'test/architecture/sql-homes.test.ts',
  'test/architecture/wiring.test.ts',
  'test/architecture/database-free.test.ts',
  'test/backups/retention.test.ts',
  'test/backups/sql-chunks.test.ts',
  'test/feed/feed-results.test.ts',
  'test/money/helpers.test.ts',
  'test/reconciliation/statement-parser.test.ts',
  'test/reports/periods.test.ts',
  'test/reports/retention-formulas.test.ts',
  'test/sms/sms-parts.test.ts',
  'test/tips-record/settlement.test.ts',
];

/** What a file that may touch a database says: its helpers, the database's names, a server or a process. */
export const MENTIONS_A_DATABASE =
  /createTestApp|openDatabase|serverDatabase|databaseForProcesses|inject\(|DATABASE_URL|\bDatabase\b|helpers\.ts|pglite|PGlite|support\/|[a-z]World\b|migrat|startServer|spawn|fork\(|\bpg\b/;
