import { desc, eq, sql } from 'drizzle-orm';
import { privacyTexts } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { fieldError } from '../../http/errors.ts';
import { erasedPhones, marketingConsentEvents, marketingConsents, users, type ConsentChannel } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';

/**
 * Marketing consent and erased phones, as the outbox sees them (decision 025). Promotional messages
 * (broadcasts, offers, win announcements) need a consent that is given; nothing at all goes to a
 * phone whose person was erased. A payment is never consent: only the person's own act (portal
 * checkbox, SMS YES, USSD) or staff recording what the person said, with a note, gives it.
 */

/** SQL true when the phone expression has given marketing consent and not withdrawn it. */
export function consentedSql(phone: ReturnType<typeof sql>) {
  return sql`exists (select 1 from ${marketingConsents} mc where mc.phone = ${phone} and mc.given)`;
}

/**
 * What an erased person's phone became on their records ('erased-c12', 'erased-s7', and 'erased'
 * on messages): a record holding it is an erased person's, never a number to write to.
 */
export const ERASED_PHONE_PREFIX = 'erased';

/** SQL true when the phone expression belongs to an erased person (looked up by its SHA-256). */
export function erasedSql(phone: ReturnType<typeof sql>) {
  return sql`(${phone} like ${`${ERASED_PHONE_PREFIX}%`} or exists (select 1 from ${erasedPhones} ep where ep.phone_hash = encode(sha256(convert_to(${phone}, 'UTF8')), 'hex')))`;
}

/** The phone is an erased person's: their real number (by its hash) or the pseudonym it became. */
export async function isErasedPhone(db: Queryable, phone: string): Promise<boolean> {
  return phone.startsWith(ERASED_PHONE_PREFIX) || isErasedHash(db, sha256Hex(phone));
}

export async function isErasedHash(db: Queryable, phoneHash: string): Promise<boolean> {
  const found = await db.select({ h: erasedPhones.phoneHash }).from(erasedPhones).where(eq(erasedPhones.phoneHash, phoneHash)).limit(1);
  return found.length > 0;
}

export async function hasConsent(db: Queryable, phone: string): Promise<boolean> {
  const [row] = await rows<{ yes: boolean }>(db, sql`select ${consentedSql(sql`${phone}`)} as yes`);
  return row?.yes === true;
}

export interface ConsentChange {
  phone: string;
  given: boolean;
  channel: ConsentChannel;
  wording: string;
  note?: string | null;
  recordedBy?: number | null;
}

/** Records a consent given or withdrawn (the current state and its history row). Returns whether it changed. */
export async function recordConsent(db: Queryable, c: ConsentChange): Promise<boolean> {
  const [current] = await db.select({ given: marketingConsents.given }).from(marketingConsents).where(eq(marketingConsents.phone, c.phone));
  if (!current && !c.given) return false; // nothing to withdraw
  // An erased person's phone holds no consent again (decision 032): refused, naming the phone.
  if (await isErasedPhone(db, c.phone)) throw fieldError('phone', privacyTexts.phoneErased);
  const values = {
    given: c.given,
    channel: c.channel,
    wording: c.wording,
    note: c.note ?? null,
    recordedBy: c.recordedBy ?? null,
    changedAt: new Date(),
  };
  await db.insert(marketingConsents).values({ phone: c.phone, ...values }).onConflictDoUpdate({ target: marketingConsents.phone, set: values });
  await db.insert(marketingConsentEvents).values({
    phone: c.phone,
    given: c.given,
    channel: c.channel,
    wording: c.wording,
    note: c.note ?? null,
    recordedBy: c.recordedBy ?? null,
  });
  return current?.given !== c.given;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** A phone's consent as it stands and its whole history (newest first). */
export async function consentState(db: Queryable, phone: string) {
  const [current] = await db.select().from(marketingConsents).where(eq(marketingConsents.phone, phone));
  const history = await db
    .select({
      given: marketingConsentEvents.given,
      channel: marketingConsentEvents.channel,
      wording: marketingConsentEvents.wording,
      note: marketingConsentEvents.note,
      by: users.name,
      at: marketingConsentEvents.at,
    })
    .from(marketingConsentEvents)
    .leftJoin(users, eq(users.id, marketingConsentEvents.recordedBy))
    .where(eq(marketingConsentEvents.phone, phone))
    .orderBy(desc(marketingConsentEvents.id));
  return {
    given: current?.given ?? false,
    since: current ? iso(current.changedAt) : null,
    channel: current?.channel ?? null,
    wording: current?.wording ?? null,
    history: history.map((h) => ({ ...h, at: iso(h.at) })),
  };
}
