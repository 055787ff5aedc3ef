import { eq } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { phoneLanguages, type LANGUAGE_SOURCES } from '../../../db/schema/index.ts';
import type { Language } from '../../../customer-texts/catalogue.ts';

/** Stores a phone's language: one row per phone, the last choice wins. */
export async function saveLanguage(
  db: Queryable,
  c: { phone: string; language: Language; source: (typeof LANGUAGE_SOURCES)[number]; by: number | null },
): Promise<void> {
  await db
    .insert(phoneLanguages)
    .values({ phone: c.phone, language: c.language, source: c.source, updatedBy: c.by })
    .onConflictDoUpdate({
      target: phoneLanguages.phone,
      set: { language: c.language, source: c.source, updatedBy: c.by, updatedAt: new Date() },
    });
}

export async function deleteLanguage(db: Queryable, phone: string): Promise<void> {
  await db.delete(phoneLanguages).where(eq(phoneLanguages.phone, phone));
}

/** The language a phone chose, or null when it never chose. */
export async function findLanguage(db: Queryable, phone: string): Promise<Language | null> {
  const [row] = await db.select({ language: phoneLanguages.language }).from(phoneLanguages).where(eq(phoneLanguages.phone, phone));
  return row?.language ?? null;
}
