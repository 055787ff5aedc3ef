import { and, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { pausedNowSql } from '../pauses/service.ts';
import { centsToKes, coverImageUrl, type PortalPost, type PortalPurchase, type PortalSubscription, type PortalTeaser } from '@betdesk/contract';
import {
  betCategories,
  imageTypes,
  mpesaPayments,
  portalCodes,
  portalSessions,
  postCategories,
  pricePackages,
  stkRequests,
  subscriptions,
  tipsPostBets,
  tipsPosts,
  tipsSubscribers,
} from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';

// ---- codes and sessions -------------------------------------------------------------------------

export async function countCodesSince(db: Queryable, by: { phone: string } | { ip: string }, minutes: number): Promise<number> {
  const who = 'phone' in by ? eq(portalCodes.phone, by.phone) : eq(portalCodes.ip, by.ip);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(portalCodes)
    .where(and(who, gt(portalCodes.createdAt, sql`now() - make_interval(mins => ${minutes})`)));
  return Number(row?.n ?? 0);
}

export async function insertCode(db: Queryable, c: { phone: string; codeHash: string; ip: string; ttlMinutes: number }): Promise<number> {
  const [row] = await db
    .insert(portalCodes)
    .values({ phone: c.phone, codeHash: c.codeHash, ip: c.ip, expiresAt: sql`now() + make_interval(mins => ${c.ttlMinutes})` })
    .returning({ id: portalCodes.id });
  return row!.id;
}

/** The phone's newest code still usable (not used, not expired), locked for the check. */
export async function liveCodeForUpdate(db: Queryable, phone: string) {
  const [row] = await db
    .select({ id: portalCodes.id, codeHash: portalCodes.codeHash, tries: portalCodes.tries })
    .from(portalCodes)
    .where(and(eq(portalCodes.phone, phone), isNull(portalCodes.usedAt), gt(portalCodes.expiresAt, sql`now()`)))
    .orderBy(desc(portalCodes.createdAt), desc(portalCodes.id))
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function countWrongTry(db: Queryable, codeId: number): Promise<void> {
  await db.update(portalCodes).set({ tries: sql`${portalCodes.tries} + 1` }).where(eq(portalCodes.id, codeId));
}

export async function markCodeUsed(db: Queryable, codeId: number): Promise<void> {
  await db.update(portalCodes).set({ usedAt: sql`now()` }).where(eq(portalCodes.id, codeId));
}

export async function insertSession(
  db: Queryable,
  s: { phone: string; tokenHash: string; ttlDays: number; ip: string; userAgent: string | null },
): Promise<void> {
  await db.insert(portalSessions).values({
    phone: s.phone,
    tokenHash: s.tokenHash,
    expiresAt: sql`now() + make_interval(days => ${s.ttlDays})`,
    ip: s.ip,
    userAgent: s.userAgent,
  });
}

export async function liveSession(db: Queryable, tokenHash: string) {
  const [row] = await db
    .select({ sessionId: portalSessions.id, phone: portalSessions.phone })
    .from(portalSessions)
    .where(and(eq(portalSessions.tokenHash, tokenHash), isNull(portalSessions.revokedAt), gt(portalSessions.expiresAt, sql`now()`)));
  return row ?? null;
}

export async function revokeSession(db: Queryable, sessionId: number): Promise<void> {
  await db.update(portalSessions).set({ revokedAt: sql`now()` }).where(eq(portalSessions.id, sessionId));
}

// ---- who is signed in ---------------------------------------------------------------------------

export async function subscriberByPhone(db: Queryable, phone: string): Promise<{ id: number; name: string } | null> {
  const [row] = await db.select({ id: tipsSubscribers.id, name: tipsSubscribers.name }).from(tipsSubscribers).where(eq(tipsSubscribers.phone, phone));
  return row ?? null;
}

/** The newest expiry of each (category, medium) the subscriber ever had; voided (reversed) ones do not count. */
/** The subscriptions of a phone by category and medium, with the id of each one's latest sale (for its invoice). */
export async function subscriptionsOf(
  db: Queryable,
  subscriberId: number,
): Promise<(Omit<PortalSubscription, 'invoice' | 'auto_renew' | 'pause'> & { saleId: number | null })[]> {
  const found = await rows<{
    bet_category: string;
    code: string;
    medium: 'sms' | 'web';
    expires_at: string;
    active: boolean;
    days_left: number;
    sale_id: string | number | null;
    subscription_id: string | number;
  }>(
    db,
    sql`select bc.name as bet_category, bc.code, s.medium, max(s.expires_at) as expires_at,
               (array_agg(s.id order by s.expires_at desc, s.id desc))[1] as subscription_id,
               (array_agg(s.id order by s.id desc) filter (where s.source <> 'manual'))[1] as sale_id,
               max(s.expires_at) > now() as active,
               greatest(0, ceil(extract(epoch from (max(s.expires_at) - now())) / 86400))::int as days_left
          from ${subscriptions} s
          join ${betCategories} bc on bc.id = s.bet_category_id
         where s.subscriber_id = ${subscriberId} and s.reversed_at is null and s.medium is not null
         group by bc.name, bc.code, s.medium
         order by max(s.expires_at) desc`,
  );
  return found.map((s) => ({
    bet_category: s.bet_category,
    bet_category_code: s.code,
    medium: s.medium,
    expires_at: new Date(s.expires_at).toISOString(),
    active: s.active === true,
    days_left: Number(s.days_left),
    saleId: s.sale_id === null ? null : Number(s.sale_id),
    subscription_id: Number(s.subscription_id),
  }));
}

// ---- posts --------------------------------------------------------------------------------------

interface PostRecord {
  id: number;
  title: string;
  post_category: string;
  match_date: string;
  bet_categories: string[] | string | null;
  image_name: string | null;
  content?: string;
  readable?: boolean;
  total_records?: string | number;
}

/**
 * SQL true when the subscriber may read post `p`: it is shown in a category of one of their active
 * web subscriptions (voided ones and paused ones, decision 090, do not count).
 */
const subscribedTo = (subscriberId: number | null) =>
  subscriberId === null
    ? sql`false`
    : sql`exists (select 1 from ${tipsPostBets} pb
                    join ${subscriptions} s on s.bet_category_id = pb.bet_category_id
                   where pb.post_id = p.id and s.subscriber_id = ${subscriberId} and s.medium = 'web'
                     and s.expires_at > now() and s.reversed_at is null
                     and not ${pausedNowSql(sql`s.subscriber_id`, sql`s.bet_category_id`, 'web')})`;

const postColumns = sql`p.id, p.title, pc.name as post_category, p.match_date::text as match_date, it.image_name,
       (select json_agg(bc.name order by bc.name) from ${tipsPostBets} pb join ${betCategories} bc on bc.id = pb.bet_category_id
         where pb.post_id = p.id) as bet_categories`;
const postFrom = sql`from ${tipsPosts} p
  join ${postCategories} pc on pc.id = p.post_category_id
  left join ${imageTypes} it on it.id = p.image_type_id`;

function teaserOf(r: PostRecord): PortalTeaser {
  const bets = typeof r.bet_categories === 'string' ? (JSON.parse(r.bet_categories) as string[]) : (r.bet_categories ?? []);
  return { id: Number(r.id), title: r.title, post_category: r.post_category, bet_categories: bets, match_date: r.match_date };
}

function postOf(r: PostRecord): PortalPost {
  return { ...teaserOf(r), content: r.content ?? '', image_url: r.image_name ? coverImageUrl(r.image_name) : null };
}

/** One page of the posts the subscriber may read, newest match first. */
export async function readablePosts(
  db: Queryable,
  subscriberId: number,
  page: { limit: number; offset: number },
): Promise<{ posts: PortalPost[]; total: number }> {
  const where: SQL = sql`p.deleted_at is null and ${subscribedTo(subscriberId)}`;
  const found = await rows<PostRecord>(
    db,
    sql`select ${postColumns}, p.content, count(*) over() as total_records ${postFrom}
         where ${where} order by p.match_date desc, p.id desc limit ${page.limit} offset ${page.offset}`,
  );
  let total = Number(found[0]?.total_records ?? 0);
  if (found.length === 0 && page.offset > 0) {
    const [counted] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${tipsPosts} p where ${where}`);
    total = Number(counted?.n ?? 0);
  }
  return { posts: found.map(postOf), total };
}

/** A live post and whether this reader may see its content (free tip, or subscribed). */
export async function postForReader(db: Queryable, id: number, subscriberId: number | null): Promise<{ post: PortalPost; readable: boolean } | null> {
  const [row] = await rows<PostRecord>(
    db,
    sql`select ${postColumns}, p.content, (pc.public or ${subscribedTo(subscriberId)}) as readable ${postFrom}
         where p.id = ${id} and p.deleted_at is null`,
  );
  return row ? { post: postOf(row), readable: row.readable === true } : null;
}

/** Free tips for the home page: posts of public post categories from `fromDay` on, soonest first. */
export async function freePosts(db: Queryable, fromDay: string, limit: number): Promise<PortalPost[]> {
  const found = await rows<PostRecord>(
    db,
    sql`select ${postColumns}, p.content ${postFrom}
         where p.deleted_at is null and pc.public and p.match_date >= ${fromDay}::date
         order by p.match_date, p.id desc limit ${limit}`,
  );
  return found.map(postOf);
}

/** Teasers of the newest posts of a bet category (the package page shows what a subscription opens). */
export async function teasersOfCategory(db: Queryable, betCategoryId: number, limit: number): Promise<PortalTeaser[]> {
  const found = await rows<PostRecord>(
    db,
    sql`select ${postColumns} ${postFrom}
         where p.deleted_at is null
           and exists (select 1 from ${tipsPostBets} pb where pb.post_id = p.id and pb.bet_category_id = ${betCategoryId})
         order by p.match_date desc, p.id desc limit ${limit}`,
  );
  return found.map(teaserOf);
}

// ---- purchases ----------------------------------------------------------------------------------

/** A payment request of this subscriber for a package, with the expiry of what it bought once paid. */
/** A purchase of the phone's, with the payment that paid it (for its invoice). */
export async function purchaseOf(db: Queryable, subscriberId: number, id: number): Promise<{ purchase: Omit<PortalPurchase, 'invoice'>; paymentId: number | null } | null> {
  const [row] = await rows<{
    id: number;
    payment_id: string | number | null;
    package: string | null;
    amount_cents: string | number;
    status: PortalPurchase['status'];
    result_desc: string | null;
    receipt: string | null;
    expires_at: string | null;
    requested_at: string;
  }>(
    db,
    sql`select r.id, r.payment_id, pp.name as package, r.amount_cents, r.status, r.result_desc, r.requested_at,
               (select m.trans_id from ${mpesaPayments} m where m.id = r.payment_id) as receipt,
               (select max(s.expires_at) from ${subscriptions} s where s.payment_id = r.payment_id and s.reversed_at is null) as expires_at
          from ${stkRequests} r
          left join ${pricePackages} pp on pp.id = r.package_id
         where r.id = ${id} and r.subscriber_id = ${subscriberId} and r.purpose = 'package'`,
  );
  if (!row) return null;
  const purchase = {
    id: Number(row.id),
    package: row.package ?? 'Tips package',
    amount: centsToKes(row.amount_cents),
    status: row.status,
    reason: row.status === 'failed' || row.status === 'cancelled' ? row.result_desc : null,
    receipt: row.receipt,
    expires_at: row.expires_at ? new Date(row.expires_at).toISOString() : null,
    requested_at: new Date(row.requested_at).toISOString(),
  };
  return { purchase, paymentId: row.status === 'paid' && row.payment_id !== null ? Number(row.payment_id) : null };
}
