import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { settings, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

export interface SettingRow {
  key: string;
  value: unknown;
  description: string;
  updated_at: string;
  updated_by_name: string | null;
  reason: string | null;
}

export async function listSettings(db: Queryable): Promise<SettingRow[]> {
  const found = await db
    .select({
      key: settings.key,
      value: settings.value,
      description: settings.description,
      updatedAt: settings.updatedAt,
      updatedByName: users.name,
      reason: settings.reason,
    })
    .from(settings)
    .leftJoin(users, eq(users.id, settings.updatedBy))
    .orderBy(asc(settings.key));
  return found.map((s) => ({
    key: s.key,
    value: s.value,
    description: s.description,
    updated_at: s.updatedAt.toISOString(),
    updated_by_name: s.updatedByName,
    reason: s.reason,
  }));
}

/** The current value, locked until the transaction ends; undefined when the row is missing. */
export async function lockSetting(db: Queryable, key: string): Promise<unknown> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).for('update');
  return row?.value;
}

/** Writes a value and the reason it stands (a safeguard turned off), or clears the reason with null. */
export async function saveSetting(db: Queryable, key: string, value: unknown, userId: number, reason: string | null = null): Promise<void> {
  await db
    .update(settings)
    .set({ value, updatedBy: userId, updatedAt: sql`now()`, reason })
    .where(eq(settings.key, key));
}

/** A setting's stored value; undefined when the row is missing. */
export async function settingValue(db: Queryable, key: string): Promise<unknown> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value;
}

/** The stored values of several settings in one read (a key with no row is absent from the map). */
export async function settingValues(db: Queryable, keys: readonly string[]): Promise<Map<string, unknown>> {
  const found = await db.select({ key: settings.key, value: settings.value }).from(settings).where(inArray(settings.key, [...keys]));
  return new Map(found.map((r) => [r.key, r.value]));
}

/**
 * The stored values of several settings as one column of another module's read (one round trip
 * fewer): a json object of key and value (a key with no row is absent; no row at all is null).
 */
export function settingValuesColumn(keys: readonly string[]): SQL {
  return sql`(select json_object_agg(${settings.key}, ${settings.value}) from ${settings} where ${inArray(settings.key, [...keys])})`;
}

/** Writes a setting whether or not its row exists (the private settings a module keeps by its own rules). */
export async function upsertSetting(
  db: Queryable,
  row: { key: string; value: unknown; description: string; updatedBy: number | null },
): Promise<void> {
  await db
    .insert(settings)
    .values(row)
    .onConflictDoUpdate({ target: settings.key, set: { value: row.value, updatedBy: row.updatedBy, updatedAt: new Date() } });
}

/** Writes the settings whose rows are missing; a row already there keeps its value. */
export async function insertMissingSettings(db: Queryable, rows: { key: string; value: unknown; description: string }[]): Promise<void> {
  await db.insert(settings).values(rows).onConflictDoNothing({ target: settings.key });
}
