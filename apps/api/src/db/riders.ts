import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** A write whose result nobody reads (an insert of audit rows, say): it can ride along with another statement. */
export type Rider = SQLWrapper;

/**
 * The riders as data-modifying CTEs at the head of a statement's own WITH list
 * (`with ${ridersFirst(riders)}device as (…) insert …`): they are written in the same statement, so
 * in the same round trip, and fail with it. They see the statement's snapshot, not each other's rows,
 * so a rider must not depend on the statement's writes nor on another rider's.
 */
export function ridersFirst(riders: readonly Rider[]): SQL {
  return sql.join(riders.map((rider, i) => sql`${sql.raw(`rider_${i + 1}`)} as (${rider.getSQL()}), `));
}
