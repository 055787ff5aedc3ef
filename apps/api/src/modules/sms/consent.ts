import { privacyTexts } from '@betdesk/contract';
import { fieldError } from '../../http/errors.ts';
import { ERASED_PHONE_PREFIX, type ConsentChannel } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import * as q from './queries/consent.ts';

/**
 * Marketing consent and erased phones, as the outbox sees them (decision 025). Promotional messages
 * (broadcasts, offers, win announcements) need a consent that is given; nothing at all goes to a
 * phone whose person was erased. A payment is never consent: only the person's own act (portal
 * checkbox, SMS YES, USSD) or staff recording what the person said, with a note, gives it.
 */

/** The phone is an erased person's: their real number (by its hash) or the pseudonym it became. */
export async function isErasedPhone(db: Queryable, phone: string): Promise<boolean> {
  return phone.startsWith(ERASED_PHONE_PREFIX) || isErasedHash(db, sha256Hex(phone));
}

export async function isErasedHash(db: Queryable, phoneHash: string): Promise<boolean> {
  return q.phoneHashErased(db, phoneHash);
}

/** Whether one of these phone hashes (SHA-256, hex) is an erased person's, in one look-up. */
export async function isSomeHashErased(db: Queryable, phoneHashes: readonly string[]): Promise<boolean> {
  return q.someHashErased(db, phoneHashes);
}

export async function hasConsent(db: Queryable, phone: string): Promise<boolean> {
  return q.phoneConsented(db, phone);
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
  const current = await q.consentOf(db, c.phone);
  if (!current && !c.given) return false; // nothing to withdraw
  // An erased person's phone holds no consent again (decision 032): refused, naming the phone.
  if (await isErasedPhone(db, c.phone)) throw fieldError('phone', privacyTexts.phoneErased);
  await q.saveConsent(db, {
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
  const current = await q.consentOf(db, phone);
  const history = await q.consentHistory(db, phone);
  return {
    given: current?.given ?? false,
    since: current ? iso(current.changedAt) : null,
    channel: current?.channel ?? null,
    wording: current?.wording ?? null,
    history: history.map((h) => ({ ...h, at: iso(h.at) })),
  };
}
