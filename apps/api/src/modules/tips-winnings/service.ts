import {
  RECORD_BLOCK_ALL,
  RECORD_BLOCK_PATTERN,
  RECORD_BLOCK_PERIOD_LABELS,
  RECORD_BLOCK_PERIODS,
  presetRange,
  successTexts,
  type RecordBlockPeriod,
  refusalTexts,
} from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { fieldError } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import { containsScript, sanitizeTipHtml } from '../tips-posts/service.ts';
import * as q from './queries.ts';
import { betCategoryCodeExists, recordOfCategoryCode, type CategoryRecord } from '../tips-record/service.ts';

export async function winningsHtml(db: Queryable): Promise<string> {
  return (await q.pageContent(db)) ?? '';
}

/** Saves the Winnings & Results page: sanitized HTML, one row, audited with before and after. */
export async function saveWinnings(
  deps: AppDeps,
  actor: Actor,
  html: string,
  requestId: string | null,
): Promise<{ info: string }> {
  if (containsScript(html)) throw fieldError('content', refusalTexts.winningsNoScripts);
  const content = sanitizeTipHtml(html);
  await deps.db.transaction(async (tx) => {
    await checkRecordBlocks(tx, content);
    const before = await winningsHtml(tx);
    await q.saveWinningsContent(tx, content, actor.userId);
    await audit(tx, 'winnings.update', 1, byStaff(actor, requestId), { before: { content: before }, after: { content } });
  });
  return { info: successTexts.winningsUpdated };
}

const isPeriod = (period: string): period is RecordBlockPeriod => (RECORD_BLOCK_PERIODS as readonly string[]).includes(period);
const categoryOf = (code: string) => (code.toUpperCase() === RECORD_BLOCK_ALL ? null : code);

/** A record block must name a bet category (or ALL) and a period the page can compute (422 otherwise). */
async function checkRecordBlocks(db: Queryable, content: string): Promise<void> {
  for (const [marker, code, period] of content.matchAll(RECORD_BLOCK_PATTERN)) {
    if (!isPeriod(period!)) {
      throw fieldError('content', `The record block ${marker} has no period "${period}": use ${RECORD_BLOCK_PERIODS.join(', ')}`);
    }
    const category = categoryOf(code!);
    if (category !== null && !(await betCategoryCodeExists(db, category))) {
      throw fieldError('content', `The record block ${marker} names no bet category: no category has the code "${code}"`);
    }
  }
}

/** A piece of the page as readers see it: saved HTML, or the current figures of a record block. */
export type WinningsPart = { html: string } | { record: CategoryRecord; period: string };

/**
 * The Winnings & Results page for readers: each record block (alone in its paragraph or inline)
 * becomes the figures computed now from the entered results; a block whose category is gone shows
 * nothing.
 */
export async function winningsForReaders(db: Queryable, now: Date = new Date()): Promise<WinningsPart[]> {
  const content = await winningsHtml(db);
  const parts: WinningsPart[] = [];
  const wrapped = new RegExp(`(?:<p>\\s*)?${RECORD_BLOCK_PATTERN.source}(?:\\s*</p>)?`, 'g');
  let last = 0;
  for (const match of content.matchAll(wrapped)) {
    const [whole, code, period] = match;
    // A marker inside a tag (a link's address) is left as it is: figures go only where text goes.
    const at = match.index + whole.indexOf('[[');
    if (content.lastIndexOf('<', at) > content.lastIndexOf('>', at)) continue;
    const before = content.slice(last, match.index);
    const opened = whole.startsWith('<p>');
    const closed = whole.endsWith('</p>');
    // Only a paragraph holding the block alone is replaced whole; otherwise its tags stay around it.
    const alone = opened && closed;
    if (before) parts.push({ html: before + (opened && !alone ? '<p>' : '') });
    if (isPeriod(period!)) {
      const range = period === 'all' ? {} : presetRange(period, now);
      const record = await recordOfCategoryCode(db, categoryOf(code!), range);
      if (record) parts.push({ record, period: RECORD_BLOCK_PERIOD_LABELS[period] });
    }
    if (closed && !alone) parts.push({ html: '</p>' });
    last = match.index + whole.length;
  }
  const rest = content.slice(last);
  if (rest) parts.push({ html: rest });
  return parts;
}
