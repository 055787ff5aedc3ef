/**
 * The API test files that run each in a process of their own (Vitest's `isolate`), apart from the rest,
 * which share their fork's loaded modules (vitest.config.ts, decision 096):
 *
 * - fake timers (`vi.useFakeTimers`): a file that fails before it restores them would leave the
 *   next file in its fork on a stopped clock;
 * - `vi.mock`: a mocked module is the fork's, not the file's;
 * - the process's own memory, measured (the backup's streaming test).
 *
 * test/architecture/own-process.test.ts checks that every file using one of these is listed here.
 */
export const OWN_PROCESS_FILES = [
  'test/agent-payouts/agent-payouts.test.ts',
  'test/auth/two-factor.test.ts',
  'test/backups/streaming.test.ts',
  'test/books/periods.test.ts',
  'test/events/announce-committed.test.ts',
  'test/operations/rotate-secrets-key.test.ts',
  'test/operations/slow-boot.test.ts',
  'test/refunds/refunds.test.ts',
  'test/sms/nudges.test.ts',
  'test/users/two-person-rule.test.ts',
];

/** What puts a file in a process of its own (a test file's text matching it must be listed above). */
export const NEEDS_OWN_PROCESS = /vi\.(mock|doMock|useFakeTimers|stubGlobal|stubEnv|resetModules)\(|memoryUsage\(/;
