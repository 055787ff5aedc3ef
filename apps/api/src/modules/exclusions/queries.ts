import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { iso, isoOrNull, rows } from '../../db/rows.ts';
import { refusedSales, selfExclusions, under18Marks, users, type ExclusionChannel, type ExclusionPeriod, type SaleBlock } from '../../db/schema/index.ts';

export interface ExclusionRow {
  id: number;
  phone: string | null;
  period: ExclusionPeriod;
  channel: ExclusionChannel;
  starts_at: string;
  ends_at: string | null;
  running: boolean;
  recorded_by: string | null;
  note: string | null;
  end_told_at: string | null;
}

const exclusionColumns = sql`x.id, x.phone, x.period, x.channel, x.starts_at, x.ends_at,
       (x.starts_at <= now() and (x.ends_at is null or x.ends_at > now())) as running,
       u.name as recorded_by, x.note, x.end_told_at`;

type RawExclusion = Omit<ExclusionRow, 'id' | 'starts_at' | 'ends_at' | 'end_told_at'> & { id: number | string; starts_at: unknown; ends_at: unknown; end_told_at: unknown };

const exclusionOf = (r: RawExclusion): ExclusionRow => ({
  ...r,
  id: Number(r.id),
  starts_at: iso(r.starts_at),
  ends_at: isoOrNull(r.ends_at),
  end_told_at: isoOrNull(r.end_told_at),
});

/** Records one exclusion from now; `days` null for good. */
export async function insertExclusion(
  tx: Queryable,
  e: { phone: string; phoneHash: string; period: ExclusionPeriod; channel: ExclusionChannel; days: number | null; recordedBy: number | null; note: string | null },
): Promise<ExclusionRow> {
  const [row] = await rows<RawExclusion>(
    tx,
    sql`with x as (
          insert into ${selfExclusions} (phone, phone_hash, period, channel, ends_at, recorded_by, note)
          values (${e.phone}, ${e.phoneHash}, ${e.period}, ${e.channel},
                  ${e.days === null ? sql`null` : sql`now() + make_interval(days => ${e.days})`}, ${e.recordedBy}, ${e.note})
          returning *)
        select ${exclusionColumns} from x left join ${users} u on u.id = x.recorded_by`,
  );
  return exclusionOf(row!);
}

/** The exclusion of this phone hash that ends last among those running now (null end first: for good), or none. */
export async function runningExclusion(db: Queryable, phoneHash: string): Promise<{ id: number; endsAt: Date | null } | null> {
  const [row] = await rows<{ id: number | string; ends_at: unknown }>(
    db,
    sql`select id, ends_at from ${selfExclusions}
         where phone_hash = ${phoneHash} and starts_at <= now() and (ends_at is null or ends_at > now())
         order by ends_at desc nulls first limit 1`,
  );
  return row ? { id: Number(row.id), endsAt: row.ends_at == null ? null : new Date(row.ends_at as string) } : null;
}

/** A page of the register, newest first; `search` is digits of the phone. */
export async function exclusionPage(db: Queryable, p: { search: string; limit: number; offset: number }): Promise<{ found: ExclusionRow[]; total: number }> {
  const where = p.search ? sql`where x.phone like ${`%${p.search}%`}` : sql``;
  const found = await rows<RawExclusion & { total_records: number | string }>(
    db,
    sql`select ${exclusionColumns}, count(*) over() as total_records
          from ${selfExclusions} x left join ${users} u on u.id = x.recorded_by
          ${where} order by x.id desc limit ${p.limit} offset ${p.offset}`,
  );
  return { found: found.map(({ total_records: _t, ...r }) => exclusionOf(r)), total: Number(found[0]?.total_records ?? 0) };
}

/** The register's counts: running, for good, ended, by channel; under-18 marks; payments kept. */
export async function exclusionCounts(db: Queryable) {
  const [row] = await rows<{ running: number; for_good: number; ended: number; under_18: number; refused_sales: number; by_channel: unknown }>(
    db,
    sql`select
          (select count(distinct phone_hash)::int from ${selfExclusions} where starts_at <= now() and (ends_at is null or ends_at > now())) as running,
          (select count(*)::int from ${selfExclusions} where ends_at is null) as for_good,
          (select count(*)::int from ${selfExclusions} where ends_at <= now()) as ended,
          (select count(*)::int from ${under18Marks}) as under_18,
          (select count(*)::int from ${refusedSales} where payment_id is not null) as refused_sales,
          (select coalesce(json_object_agg(channel, n), '{}'::json) from (select channel, count(*)::int as n from ${selfExclusions} group by channel) c) as by_channel`,
  );
  const byChannel = (typeof row!.by_channel === 'string' ? JSON.parse(row!.by_channel) : row!.by_channel) as Record<string, number>;
  return { running: row!.running, for_good: row!.for_good, ended: row!.ended, under_18: row!.under_18, refused_sales: row!.refused_sales, by_channel: byChannel };
}

/** Marks a phone as under 18; false when it was marked already. */
export async function insertUnder18Mark(tx: Queryable, m: { phone: string; phoneHash: string; note: string; markedBy: number }): Promise<boolean> {
  const inserted = await tx
    .insert(under18Marks)
    .values({ phone: m.phone, phoneHash: m.phoneHash, note: m.note, markedBy: m.markedBy })
    .onConflictDoNothing()
    .returning({ h: under18Marks.phoneHash });
  return inserted.length > 0;
}

/** Counts a sale refused for the report (a payment kept, or a purchase refused before it was asked). */
export async function insertRefusedSale(tx: Queryable, r: { paymentId: number | null; phoneHash: string; reason: SaleBlock; channel: string }): Promise<void> {
  await tx.insert(refusedSales).values(r);
}

/** Exclusions that ended and whose person was not told yet (the oldest first), locked for this run. */
export async function endedUntold(tx: Queryable, limit: number): Promise<{ id: number; phone: string | null; phoneHash: string }[]> {
  const found = await rows<{ id: number | string; phone: string | null; phone_hash: string }>(
    tx,
    sql`select id, phone, phone_hash from ${selfExclusions}
         where end_told_at is null and ends_at is not null and ends_at <= now()
         order by ends_at limit ${limit} for update skip locked`,
  );
  return found.map((r) => ({ id: Number(r.id), phone: r.phone, phoneHash: r.phone_hash }));
}

export async function markEndTold(tx: Queryable, id: number): Promise<void> {
  await tx.update(selfExclusions).set({ endToldAt: new Date() }).where(eq(selfExclusions.id, id));
}

/** A person's exclusions and under-18 mark, for their data export. */
export async function exclusionsOfHash(db: Queryable, phoneHash: string) {
  const exclusions = await db.select().from(selfExclusions).where(eq(selfExclusions.phoneHash, phoneHash));
  const marks = await db.select().from(under18Marks).where(eq(under18Marks.phoneHash, phoneHash));
  return { exclusions, marks };
}

/** Erasure: the phone leaves the records, its hash stays (the exclusion still holds). */
export async function forgetPhone(tx: Queryable, phoneHash: string): Promise<number> {
  const a = await tx.update(selfExclusions).set({ phone: null, note: null }).where(eq(selfExclusions.phoneHash, phoneHash)).returning({ id: selfExclusions.id });
  const b = await tx.update(under18Marks).set({ phone: null }).where(and(eq(under18Marks.phoneHash, phoneHash))).returning({ h: under18Marks.phoneHash });
  return a.length + b.length;
}

/** Per Nairobi month between two days: exclusions started and ended, sales refused by reason. */
export async function saferGamblingMonths(db: Queryable, from: string, to: string) {
  const nairobiMonth = (column: SQL) => sql`to_char(${column} at time zone 'Africa/Nairobi', 'YYYY-MM')`;
  const inRange = (column: SQL) =>
    sql`(${column} at time zone 'Africa/Nairobi')::date between ${from}::date and ${to}::date`;
  return rows<{ month: string; started: number; ended: number; excluded: number; under_18: number }>(
    db,
    sql`with events as (
          select ${nairobiMonth(sql`starts_at`)} as month, 1 as started, 0 as ended, 0 as excluded, 0 as under_18
            from ${selfExclusions} where ${inRange(sql`starts_at`)}
          union all
          select ${nairobiMonth(sql`ends_at`)}, 0, 1, 0, 0
            from ${selfExclusions} where ends_at is not null and ends_at <= now() and ${inRange(sql`ends_at`)}
          union all
          select ${nairobiMonth(sql`created_at`)}, 0, 0, (reason = 'self_exclusion')::int, (reason = 'under_18')::int
            from ${refusedSales} where ${inRange(sql`created_at`)})
        select month, sum(started)::int as started, sum(ended)::int as ended, sum(excluded)::int as excluded, sum(under_18)::int as under_18
          from events group by month order by month`,
  );
}
