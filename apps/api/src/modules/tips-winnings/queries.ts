import { eq, sql } from 'drizzle-orm';
import { winningsContent } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';

/** The Winnings & Results page's HTML (one row, id 1); undefined before it was first saved. */
export async function pageContent(db: Queryable): Promise<string | undefined> {
  const [row] = await db.select({ content: winningsContent.content }).from(winningsContent).where(eq(winningsContent.id, 1));
  return row?.content;
}

/** Writes the page's HTML, the one row created on the first save. */
export async function saveWinningsContent(tx: Queryable, content: string, updatedBy: number) {
  await tx
    .insert(winningsContent)
    .values({ id: 1, content, updatedBy })
    .onConflictDoUpdate({
      target: winningsContent.id,
      set: { content, updatedBy, updatedAt: sql`now()` },
    });
}
