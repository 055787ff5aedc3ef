import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Notice } from './common.ts';
import { DATE_PRESETS } from './date-range.ts';

export const WINNINGS_CONTENT_MAX = 200_000;

/** The periods a record block can cover: the lists' presets, or every result ever entered. */
export const RECORD_BLOCK_PERIODS = ['all', ...DATE_PRESETS] as const;
export type RecordBlockPeriod = (typeof RECORD_BLOCK_PERIODS)[number];

export const RECORD_BLOCK_PERIOD_LABELS: Record<RecordBlockPeriod, string> = {
  all: 'All time',
  today: 'Today',
  yesterday: 'Yesterday',
  'this-week': 'This week',
  'last-7-days': 'Last 7 days',
  'this-month': 'This month',
  'last-month': 'Last month',
};

/** A block's category: a bet category's code, or ALL for every category. */
export const RECORD_BLOCK_ALL = 'ALL';

/**
 * A record block as staff place it in the Winnings & Results page: plain text, so the rich-text
 * editor and the sanitizer keep it as it is. Readers never see it: the page is rendered with the
 * current figures in its place (decision 029).
 */
export function recordBlockMarker(code: string, period: RecordBlockPeriod): string {
  return `[[record:${code}:${period}]]`;
}

/** Every marker of a page: `[[record:D2:this-month]]` gives the code and the period. */
export const RECORD_BLOCK_PATTERN = /\[\[record:([^:\]\s]{1,40}):([^:\]\s]{1,40})\]\]/g;

export const winnings = endpoint({
  method: 'GET',
  path: '/api/tips/winnings/update',
  tag: 'tips-winnings',
  summary: 'The Winnings & Results content (HTML)',
  access: 'manage:tips-content',
  response: z.object({ content: z.string() }),
});

export const updateWinnings = endpoint({
  method: 'POST',
  path: '/api/tips/winnings/update',
  tag: 'tips-winnings',
  summary: 'Save the Winnings & Results content; its HTML is sanitized (allow-list) before it is stored',
  access: 'manage:tips-content',
  body: z.object({
    content: z
      .string({ message: 'The content must be text' })
      .max(WINNINGS_CONTENT_MAX, 'The content is too long'),
  }),
  response: Notice,
});
