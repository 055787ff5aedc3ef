import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { rows } from '../../../db/rows.ts';
import { phoneHistory } from './phone-history.ts';
import { ERASED_PHONE_PREFIX, erasedPhones, marketingConsentEvents, marketingConsents, type ConsentChannel } from '../../../db/schema/index.ts';

/** SQL true when the phone expression has given marketing consent and not withdrawn it. */
export function consentedSql(phone: SQL): SQL {
  return sql`exists (select 1 from ${marketingConsents} mc where mc.phone = ${phone} and mc.given)`;
}

/** SQL true when the phone expression belongs to an erased person (looked up by its SHA-256). */
export function erasedSql(phone: SQL): SQL {
  return sql`(${phone} like ${`${ERASED_PHONE_PREFIX}%`} or exists (select 1 from ${erasedPhones} ep where ep.phone_hash = encode(sha256(convert_to(${phone}, 'UTF8')), 'hex')))`;
}

/** SQL true when one of these phone hashes (SHA-256, hex) is an erased person's. */
export function anyHashErasedSql(hashes: readonly string[]): SQL {
  if (hashes.length === 0) return sql`false`;
  return sql`exists (select 1 from ${erasedPhones} ep where ep.phone_hash in (${sql.join(hashes.map((h) => sql`${h}`), sql`, `)}))`;
}

/** A phone's consent as it stands, or undefined when it never gave one. */
export async function consentOf(db: Queryable, phone: string): Promise<typeof marketingConsents.$inferSelect | undefined> {
  const [current] = await db.select().from(marketingConsents).where(eq(marketingConsents.phone, phone));
  return current;
}

export interface ConsentRecord {
  phone: string;
  given: boolean;
  channel: ConsentChannel;
  wording: string;
  note: string | null;
  recordedBy: number | null;
}

/** Stores a consent given or withdrawn: the phone's current state, and its history row. */
export async function saveConsent(db: Queryable, c: ConsentRecord): Promise<void> {
  const { phone, ...change } = c;
  const values = { ...change, changedAt: new Date() };
  await db.insert(marketingConsents).values({ phone, ...values }).onConflictDoUpdate({ target: marketingConsents.phone, set: values });
  await db.insert(marketingConsentEvents).values(c);
}

/** A phone's consent history, newest first, with the staff member who recorded each change. */
export function consentHistory(db: Queryable, phone: string) {
  const events = marketingConsentEvents;
  return phoneHistory(db, { table: events, id: events.id, phone: events.phone, by: events.recordedBy, at: events.at }, phone, {
    given: events.given,
    channel: events.channel,
    wording: events.wording,
    note: events.note,
  });
}

/** Whether an erased person's phone had this SHA-256 (their number is kept only as its hash). */
export async function phoneHashErased(db: Queryable, phoneHash: string): Promise<boolean> {
  return someHashErased(db, [phoneHash]);
}

/** Whether one of these phone hashes is an erased person's: one look-up whatever their number. */
export async function someHashErased(db: Queryable, phoneHashes: readonly string[]): Promise<boolean> {
  if (phoneHashes.length === 0) return false;
  const found = await db.select({ h: erasedPhones.phoneHash }).from(erasedPhones).where(inArray(erasedPhones.phoneHash, [...phoneHashes])).limit(1);
  return found.length > 0;
}

/** Whether the phone has given marketing consent and not withdrawn it. */
export async function phoneConsented(db: Queryable, phone: string): Promise<boolean> {
  const [row] = await rows<{ yes: boolean }>(db, sql`select ${consentedSql(sql`${phone}`)} as yes`);
  return row?.yes === true;
}
