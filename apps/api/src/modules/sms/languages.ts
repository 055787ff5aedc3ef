import type { Queryable } from '../../db/client.ts';
import type { LANGUAGE_SOURCES } from '../../db/schema/index.ts';
import type { Language } from '../../customer-texts/catalogue.ts';
import { getSetting } from '../settings/service.ts';
import * as q from './queries/languages.ts';

export type LanguageSource = (typeof LANGUAGE_SOURCES)[number];

/** The language a phone chose, or null when it never chose (the business's default serves it). */
export async function chosenLanguage(db: Queryable, phone: string): Promise<Language | null> {
  return q.findLanguage(db, phone);
}

/** The language every message to this phone is written in: its own choice, else the business's default. */
export async function languageOf(db: Queryable, phone: string): Promise<Language> {
  return (await chosenLanguage(db, phone)) ?? (await getSetting(db, 'customer_language_default'));
}

/**
 * Stores a phone's language: one row per phone, the last choice wins (USSD, SMS keyword, portal or
 * staff). Returns whether it changed, so a caller audits only a real change.
 */
export async function setLanguage(
  db: Queryable,
  c: { phone: string; language: Language; source: LanguageSource; by: number | null },
): Promise<boolean> {
  const before = await chosenLanguage(db, c.phone);
  if (before === c.language) return false;
  await q.saveLanguage(db, c);
  return true;
}

/** Erasure: the phone's language goes with the rest of what is kept about it. */
export async function forgetLanguage(db: Queryable, phone: string): Promise<void> {
  await q.deleteLanguage(db, phone);
}
