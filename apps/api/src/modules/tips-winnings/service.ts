import { eq, sql } from 'drizzle-orm';
import { successTexts } from '@betdesk/contract';
import { winningsContent } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { containsScript, sanitizeTipHtml } from '../tips-posts/service.ts';

export async function winningsHtml(db: Queryable): Promise<string> {
  const [row] = await db.select({ content: winningsContent.content }).from(winningsContent).where(eq(winningsContent.id, 1));
  return row?.content ?? '';
}

/** Saves the Winnings & Results page: sanitized HTML, one row, audited with before and after. */
export async function saveWinnings(
  deps: AppDeps,
  actor: Actor,
  html: string,
  requestId: string | null,
): Promise<{ info: string }> {
  if (containsScript(html)) throw fieldError('content', 'The content may not contain scripts');
  const content = sanitizeTipHtml(html);
  await deps.db.transaction(async (tx) => {
    const before = await winningsHtml(tx);
    await tx
      .insert(winningsContent)
      .values({ id: 1, content, updatedBy: actor.userId })
      .onConflictDoUpdate({
        target: winningsContent.id,
        set: { content, updatedBy: actor.userId, updatedAt: sql`now()` },
      });
    await audit(tx, {
      actorUserId: actor.userId,
      action: 'winnings.update',
      entity: 'winnings_content',
      entityId: 1,
      before: { content: before },
      after: { content },
      requestId,
    });
  });
  return { info: successTexts.winningsUpdated };
}
