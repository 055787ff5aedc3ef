import { desc, eq, sql } from 'drizzle-orm';
import { backupRuns, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';

/** Whether the database has Betdesk's users table at all (read without creating anything). */
export async function hasUsersTable(db: Queryable): Promise<boolean> {
  const [found] = await rows<{ present: boolean }>(db, sql`select to_regclass('public.users') is not null as present`);
  return found?.present === true;
}

/** Whether the database holds any user (every install has its first admin). */
export async function holdsAUser(db: Queryable): Promise<boolean> {
  const [someone] = await db.select({ id: users.id }).from(users).limit(1);
  return someone !== undefined;
}

/** When the install's first user was created. */
export async function firstUserCreatedAt(db: Queryable): Promise<Date | null | undefined> {
  const [first] = await db.select({ at: sql<Date>`min(${users.createdAt})` }).from(users);
  return first?.at;
}

export async function startBackupRun(db: Queryable, run: { trigger: 'schedule' | 'manual' | 'cli'; requestedBy: number | null }): Promise<number> {
  const [started] = await db.insert(backupRuns).values(run).returning({ id: backupRuns.id });
  return started!.id;
}

/** A run that made and verified its file, stamped with the database's time. */
export async function finishBackupRun(
  db: Queryable,
  id: number,
  file: { fileName: string; sizeBytes: number; sha256: string; verified: boolean },
) {
  await db
    .update(backupRuns)
    .set({ finishedAt: sql`now()`, ok: true, ...file })
    .where(eq(backupRuns.id, id));
}

export async function failBackupRun(db: Queryable, id: number, error: string) {
  await db
    .update(backupRuns)
    .set({ finishedAt: sql`now()`, ok: false, error })
    .where(eq(backupRuns.id, id));
}

/** The latest successful run's end. */
export async function lastGoodBackup(db: Queryable) {
  const [ok] = await db
    .select({ at: backupRuns.finishedAt })
    .from(backupRuns)
    .where(eq(backupRuns.ok, true))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1);
  return ok;
}

/** The latest failed run: when it ended and why. */
export async function lastFailedBackup(db: Queryable) {
  const [failed] = await db
    .select({ at: backupRuns.finishedAt, error: backupRuns.error })
    .from(backupRuns)
    .where(eq(backupRuns.ok, false))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1);
  return failed;
}
