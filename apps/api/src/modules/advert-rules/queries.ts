import { sql } from 'drizzle-orm';
import { rows } from '../../db/rows.ts';
import { promotionRefusals, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

export type PromotionRefusalInsert = typeof promotionRefusals.$inferInsert;

export async function insertRefusal(db: Queryable, refusal: PromotionRefusalInsert): Promise<void> {
  await db.insert(promotionRefusals).values(refusal);
}

export interface RefusalRow {
  id: number;
  created_at: string | Date;
  source: 'broadcast' | 'template';
  target: string;
  language: 'en' | 'sw';
  body: string;
  claims: { word: string; rule: string }[] | string;
  created_by: string | null;
}

/** The refusals made in [start, end), newest first (a range of a report: bounded by its cap). */
export function refusalsBetween(db: Queryable, start: Date, end: Date): Promise<RefusalRow[]> {
  return rows<RefusalRow>(
    db,
    sql`select r.id, r.created_at, r.source, r.target, r.language, r.body, r.claims, u.name as created_by
          from ${promotionRefusals} r left join ${users} u on u.id = r.created_by
         where r.created_at >= ${start.toISOString()} and r.created_at < ${end.toISOString()}
         order by r.id desc`,
  );
}
