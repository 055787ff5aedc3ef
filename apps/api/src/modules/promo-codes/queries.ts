/**
 * The reads and writes of promo codes and their uses (decision 077).
 * Lives in: apps/api/src/modules/promo-codes/queries.ts
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { pageWithTotal, rows } from '../../db/rows.ts';
import { agents, mpesaPayments, pricePackages, promoCodes, promoCodeUses, subscriptions, tipsSubscribers } from '../../db/schema/index.ts';

export interface CodeRow {
  id: number;
  code: string;
  kind: 'percent' | 'fixed' | 'referral';
  percent_off: number | null;
  amount_off_cents: string | number | null;
  package_ids: number[] | string;
  /** A referral code's owner's phone (decision 088): the subscriber's or the agent's; null for a promo code. */
  owner_phone: string | null;
  packages: string[] | string | null;
  starts_at: string | Date;
  ends_at: string | Date;
  max_uses: number | null;
  uses: number;
  one_per_phone: boolean;
  first_purchase_only: boolean;
  created_at: string | Date;
}

export interface CodeWrite {
  code: string;
  kind: 'percent' | 'fixed';
  percentOff: number | null;
  amountOffCents: number | null;
  packageIds: number[];
  startsAt: Date;
  endsAt: Date;
  maxUses: number | null;
  onePerPhone: boolean;
  firstPurchaseOnly: boolean;
}

const codeColumns = sql`c.id, c.code, c.kind, c.percent_off, c.amount_off_cents, c.package_ids, c.starts_at, c.ends_at, c.max_uses, c.uses,
  c.one_per_phone, c.first_purchase_only, c.created_at,
  coalesce((select s.phone from ${tipsSubscribers} s where s.id = c.referrer_subscriber_id), (select a.phone from ${agents} a where a.id = c.referrer_agent_id)) as owner_phone,
  (select coalesce(array_agg(p.name order by p.id), '{}') from ${pricePackages} p where p.id = any(c.package_ids)) as packages`;

export async function codePage(db: Queryable, page: { limit: number; offset: number }) {
  return pageWithTotal<CodeRow & { total_records?: unknown }>(
    db,
    { query: sql`select ${codeColumns}, count(*) over() as total_records from ${promoCodes} c where c.kind <> 'referral'
                 order by c.id desc limit ${page.limit} offset ${page.offset}`, offset: page.offset },
    sql`select count(*) as total from ${promoCodes} where kind <> 'referral'`,
  );
}

export async function codeById(db: Queryable, id: number): Promise<CodeRow | undefined> {
  return (await rows<CodeRow>(db, sql`select ${codeColumns} from ${promoCodes} c where c.id = ${id}`))[0];
}

export async function codeByText(db: Queryable, code: string): Promise<CodeRow | undefined> {
  return (await rows<CodeRow>(db, sql`select ${codeColumns} from ${promoCodes} c where c.code = ${code}`))[0];
}

export async function packagesExisting(db: Queryable, ids: number[]): Promise<number> {
  const [r] = await rows<{ n: string | number }>(db, sql`select count(*) as n from ${pricePackages} where id = any(${`{${ids.join(',')}}`}::int[])`);
  return Number(r?.n ?? 0);
}

const arrayOf = (ids: number[]) => `{${ids.join(',')}}`;

export async function insertCode(db: Queryable, w: CodeWrite, createdBy: number): Promise<number> {
  const [r] = await rows<{ id: number }>(
    db,
    sql`insert into ${promoCodes} (code, kind, percent_off, amount_off_cents, package_ids, starts_at, ends_at, max_uses, one_per_phone, first_purchase_only, created_by)
        values (${w.code}, ${w.kind}, ${w.percentOff}, ${w.amountOffCents}, ${arrayOf(w.packageIds)}::int[], ${w.startsAt.toISOString()}, ${w.endsAt.toISOString()},
                ${w.maxUses}, ${w.onePerPhone}, ${w.firstPurchaseOnly}, ${createdBy})
        returning id`,
  );
  return Number(r!.id);
}

/** Null when no such code, or when its cap would fall below the uses already made. */
export async function updateCode(db: Queryable, id: number, w: CodeWrite): Promise<'done' | 'missing' | 'cap'> {
  const [r] = await rows<{ id: number; uses: number }>(
    db,
    sql`update ${promoCodes} set code = ${w.code}, kind = ${w.kind}, percent_off = ${w.percentOff}, amount_off_cents = ${w.amountOffCents},
          package_ids = ${arrayOf(w.packageIds)}::int[], starts_at = ${w.startsAt.toISOString()}, ends_at = ${w.endsAt.toISOString()},
          max_uses = ${w.maxUses}, one_per_phone = ${w.onePerPhone}, first_purchase_only = ${w.firstPurchaseOnly}, updated_at = now()
        where id = ${id} and (${w.maxUses}::int is null or uses <= ${w.maxUses}::int) returning id, uses`,
  );
  if (r) return 'done';
  return (await codeById(db, id)) ? 'cap' : 'missing';
}

/** Has this phone bought a tips package with money before (any channel)? */
export async function hasBoughtBefore(db: Queryable, phone: string): Promise<boolean> {
  const [r] = await rows<{ bought: boolean }>(
    db,
    sql`select exists (select 1 from ${subscriptions} s join ${tipsSubscribers} t on t.id = s.subscriber_id
                        where t.phone = ${phone} and s.payment_id is not null and s.reversed_at is null) as bought`,
  );
  return r?.bought === true;
}

/** Does this phone hold a live (held or used) use of a code? */
export async function phoneHasUse(db: Queryable, codeId: number, phone: string): Promise<boolean> {
  const [r] = await rows<{ found: boolean }>(db, sql`select exists (select 1 from ${promoCodeUses} where code_id = ${codeId} and phone = ${phone} and status <> 'released') as found`);
  return r?.found === true;
}

/**
 * The counted update: one more use, only while the cap allows and the code runs. Concurrent
 * redemptions queue on the code's row; each re-reads `uses` after the one before committed.
 */
export async function countUse(db: Queryable, codeId: number): Promise<boolean> {
  const r = await rows<{ id: number }>(
    db,
    sql`update ${promoCodes} set uses = uses + 1 where id = ${codeId} and (max_uses is null or uses < max_uses) returning id`,
  );
  return r.length === 1;
}

export async function uncountUse(db: Queryable, codeId: number): Promise<void> {
  await db.execute(sql`update ${promoCodes} set uses = uses - 1 where id = ${codeId} and uses > 0`);
}

export interface UseInsert {
  codeId: number;
  phone: string;
  onePerPhone: boolean;
  packageId: number;
  channel: 'portal' | 'ussd' | 'paybill';
  listPriceCents: number;
  discountCents: number;
  priceCents: number;
  status: 'held' | 'used';
  paymentId?: number | null;
  subscriptionId?: number | null;
}

/** The use's row; null when the phone already holds a use of a one-per-phone code (the unique index). */
export async function insertUse(db: Queryable, u: UseInsert): Promise<number | null> {
  const found = await rows<{ id: number }>(
    db,
    sql`insert into ${promoCodeUses} (code_id, phone, phone_key, package_id, channel, list_price_cents, discount_cents, price_cents, status, payment_id, subscription_id, used_at)
        values (${u.codeId}, ${u.phone}, ${u.onePerPhone ? u.phone : null}, ${u.packageId}, ${u.channel}, ${u.listPriceCents}, ${u.discountCents}, ${u.priceCents},
                ${u.status}, ${u.paymentId ?? null}, ${u.subscriptionId ?? null}, ${u.status === 'used' ? sql`now()` : null})
        on conflict (code_id, phone_key) do nothing returning id`,
  );
  return found[0] ? Number(found[0].id) : null;
}

export async function attachStkRequest(db: Queryable, useId: number, stkRequestId: number): Promise<void> {
  await db.execute(sql`update ${promoCodeUses} set stk_request_id = ${stkRequestId} where id = ${useId}`);
}

export interface HeldUse {
  id: number;
  code_id: number;
  package_id: number;
  discount_cents: string | number;
  price_cents: string | number;
}

/** The held use an STK request carries, locked for its settlement. */
export async function heldUseOfRequest(db: Queryable, stkRequestId: number): Promise<HeldUse | undefined> {
  return (
    await rows<HeldUse>(
      db,
      sql`select id, code_id, package_id, discount_cents, price_cents from ${promoCodeUses} where stk_request_id = ${stkRequestId} and status = 'held' for update`,
    )
  )[0];
}

export async function markUsed(db: Queryable, useId: number, p: { paymentId: number; subscriptionId: number | null }): Promise<void> {
  await db.execute(sql`update ${promoCodeUses} set status = 'used', used_at = now(), payment_id = ${p.paymentId}, subscription_id = ${p.subscriptionId} where id = ${useId}`);
}

/** The used code of a sale, if it was made with one: what it was before the discount and how much came off. */
export async function usedUseOfSale(db: Queryable, subscriptionId: number): Promise<{ list_price_cents: string | number; discount_cents: string | number; price_cents: string | number } | undefined> {
  return (
    await rows<{ list_price_cents: string | number; discount_cents: string | number; price_cents: string | number }>(
      db,
      sql`select list_price_cents, discount_cents, price_cents from ${promoCodeUses} where subscription_id = ${subscriptionId} and status = 'used' limit 1`,
    )
  )[0];
}

/** Releases a held use (its push ended unpaid): the phone may use the code again, the cap gets it back. */
export async function releaseHeld(db: Queryable, useId: number): Promise<number | null> {
  const [r] = await rows<{ code_id: number }>(
    db,
    sql`update ${promoCodeUses} set status = 'released', phone_key = null where id = ${useId} and status = 'held' returning code_id`,
  );
  return r ? Number(r.code_id) : null;
}

export interface ReportRow {
  code_id: number;
  code: string;
  uses: string | number;
  income_cents: string | number;
  discount_cents: string | number;
  renewed_30: string | number;
  renewed_90: string | number;
}

/**
 * Per code, the sales its uses made in [start, end): how many, the income (price paid), the
 * discount given, and how many of those buyers bought again within 30 and 90 days of the sale.
 */
export function reportBetween(db: Queryable, start: Date, end: Date): Promise<ReportRow[]> {
  return rows<ReportRow>(
    db,
    sql`select c.id as code_id, c.code, count(u.id) as uses, coalesce(sum(u.price_cents), 0) as income_cents, coalesce(sum(u.discount_cents), 0) as discount_cents,
               count(u.id) filter (where exists (select 1 from ${subscriptions} s2 join ${subscriptions} s1 on s1.id = u.subscription_id
                  where s2.subscriber_id = s1.subscriber_id and s2.id <> s1.id and s2.payment_id is not null and s2.reversed_at is null
                    and s2.created_at > s1.created_at and s2.created_at <= s1.created_at + interval '30 days')) as renewed_30,
               count(u.id) filter (where exists (select 1 from ${subscriptions} s2 join ${subscriptions} s1 on s1.id = u.subscription_id
                  where s2.subscriber_id = s1.subscriber_id and s2.id <> s1.id and s2.payment_id is not null and s2.reversed_at is null
                    and s2.created_at > s1.created_at and s2.created_at <= s1.created_at + interval '90 days')) as renewed_90
          from ${promoCodeUses} u join ${promoCodes} c on c.id = u.code_id
         where u.status = 'used' and c.kind <> 'referral' and u.used_at >= ${start.toISOString()} and u.used_at < ${end.toISOString()}
         group by c.id, c.code order by c.code`,
  );
}

/** The held use of an STK request that ended unpaid: released (the phone may try again), the cap given it back. */
export async function releaseUsesOfRequest(db: Queryable, stkRequestId: number): Promise<void> {
  await db.execute(
    sql`with released as (
          update ${promoCodeUses} set status = 'released', phone_key = null where stk_request_id = ${stkRequestId} and status = 'held' returning code_id)
        update ${promoCodes} c set uses = c.uses - 1 from released r where c.id = r.code_id`,
  );
}

// ---- referral codes (decision 088) ---------------------------------------------------------------

export type ReferralOwner = { subscriberId: number } | { agentId: number };

const ownerWhere = (o: ReferralOwner) => ('subscriberId' in o ? sql`referrer_subscriber_id = ${o.subscriberId}` : sql`referrer_agent_id = ${o.agentId}`);

export async function referralCodeOf(db: Queryable, owner: ReferralOwner): Promise<string | null> {
  const [r] = await rows<{ code: string }>(db, sql`select code from ${promoCodes} where kind = 'referral' and ${ownerWhere(owner)}`);
  return r?.code ?? null;
}

/**
 * A referral code: no discount, every package, no end, first purchase only, one use per phone.
 * Null when the text is taken by another code (the caller draws again) or the owner has one already.
 */
export async function insertReferralCode(db: Queryable, code: string, owner: ReferralOwner): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`insert into ${promoCodes} (code, kind, percent_off, amount_off_cents, package_ids, starts_at, ends_at, max_uses, one_per_phone, first_purchase_only,
                                   referrer_subscriber_id, referrer_agent_id)
        values (${code}, 'referral', null, null, '{}'::int[], now() - interval '1 minute', '9999-12-31T00:00:00Z', null, true, true,
                ${'subscriberId' in owner ? owner.subscriberId : null}, ${'agentId' in owner ? owner.agentId : null})
        on conflict do nothing returning id`,
  );
  return found.length === 1;
}

/** Did these two phones pay from the same M-Pesa name (case and spaces aside) since `since`? */
export async function paidFromSameName(db: Queryable, phoneA: string, phoneB: string, since: Date): Promise<boolean> {
  const [r] = await rows<{ same: boolean }>(
    db,
    sql`select exists (select 1 from ${mpesaPayments} a join ${mpesaPayments} b
                         on upper(regexp_replace(a.sender_name, '\\s+', ' ', 'g')) = upper(regexp_replace(b.sender_name, '\\s+', ' ', 'g'))
                        where a.sender_phone = ${phoneA} and b.sender_phone = ${phoneB} and a.sender_name is not null and btrim(a.sender_name) <> ''
                          and a.received_at >= ${since.toISOString()} and b.received_at >= ${since.toISOString()}) as same`,
  );
  return r?.same === true;
}
