import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from './client.ts';
import { rows } from './rows.ts';
import { selfExclusions, settings, under18Marks, type SaleBlock } from './schema/index.ts';
import { sha256Hex } from '../lib/crypto.ts';

/**
 * The one check of whether a person may be sold to or sent a promotion (decision 059): a person who
 * excluded themselves (setting rg_self_exclusion) or whom staff marked as under 18 (setting
 * rg_under_18_block). SQL fragments, so each caller reads it inside a statement it makes anyway
 * (the C2B confirmation's first read, the outbox's guarded insert); `saleBlockOf` for the paths that
 * ask before they act (an STK push, a standing order, a Bet4Me bet). Here in db/, beside the money
 * figures, because many modules (mpesa, sms, auto-renew, bets, the age gate) share it and none of
 * them may import another's queries; the exclusions module writes the tables.
 */

/** SQL true when the boolean safeguard setting is on (on when the row is missing: on by default). */
export function safeguardOn(key: 'rg_self_exclusion' | 'rg_under_18_block' | 'rg_age_gate'): SQL {
  return sql`coalesce((select (st.value #>> '{}')::boolean from ${settings} st where st.key = ${key}), true)`;
}

const hashOf = (phone: SQL) => sql`encode(sha256(convert_to(${phone}, 'UTF8')), 'hex')`;

/** SQL true when one of these phone hashes has an exclusion running now (whatever the setting). */
function exclusionRunningSql(hashes: SQL): SQL {
  return sql`exists (select 1 from ${selfExclusions} x where x.phone_hash in (${hashes})
                        and x.starts_at <= now() and (x.ends_at is null or x.ends_at > now()))`;
}

const hashList = (hashes: readonly string[]) => sql.join(hashes.map((h) => sql`${h}`), sql`, `);

/**
 * SQL true when the phone expression's person excluded themselves and the safeguard is on: no
 * promotional SMS, reminder or broadcast goes to them, whatever their consent.
 */
export function excludedPhoneSql(phone: SQL): SQL {
  return sql`(${safeguardOn('rg_self_exclusion')} and ${exclusionRunningSql(hashOf(phone))})`;
}

/**
 * SQL text: why a sale to a person with one of these phone hashes is refused ('self_exclusion',
 * 'under_18'), or null when it may go ahead. Two index probes by hash, each behind its setting.
 */
export function saleBlockSql(hashes: readonly string[]): SQL {
  if (hashes.length === 0) return sql`null::text`;
  return sql`(case when ${safeguardOn('rg_self_exclusion')} and ${exclusionRunningSql(hashList(hashes))} then 'self_exclusion'
                   when ${safeguardOn('rg_under_18_block')} and exists (select 1 from ${under18Marks} u where u.phone_hash in (${hashList(hashes)})) then 'under_18'
              end)`;
}

/** Why a sale to the person of these phones is refused, or null (`saleBlockSql` on its own, one statement). */
export async function saleBlockOf(db: Queryable, ...phones: string[]): Promise<SaleBlock | null> {
  const hashes = [...new Set(phones.map(sha256Hex))];
  const [row] = await rows<{ block: SaleBlock | null }>(db, sql`select ${saleBlockSql(hashes)} as block`);
  return row?.block ?? null;
}

/** Whether the phone's person is self-excluded now and the safeguard is on. */
export async function isExcludedNow(db: Queryable, phone: string): Promise<boolean> {
  const [row] = await rows<{ yes: boolean }>(db, sql`select ${excludedPhoneSql(sql`${phone}::text`)} as yes`);
  return row?.yes === true;
}
