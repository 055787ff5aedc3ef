import { withOptOutLine } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import { getSetting } from '../settings/service.ts';

/** Africa/Nairobi is UTC+3 all year (no daylight saving). */
const NAIROBI_OFFSET_MS = 3 * 3_600_000;
const HOUR_MS = 3_600_000;

/** The promotional window in whole Nairobi hours: from `startHour` (inclusive) to `endHour` (exclusive). */
export interface PromotionalWindow {
  startHour: number;
  endHour: number;
}

export async function promotionalWindow(db: Queryable): Promise<PromotionalWindow> {
  return {
    startHour: await getSetting(db, 'sms_promotional_window_start_hour'),
    endHour: await getSetting(db, 'sms_promotional_window_end_hour'),
  };
}

/**
 * Whether a promotional message may leave at `now`, and if not, when the window next opens.
 * A window whose end is not after its start never closes.
 */
export function windowAt(now: Date, w: PromotionalWindow): { open: boolean; opensAt: Date } {
  if (w.endHour <= w.startHour) return { open: true, opensAt: now };
  const local = now.getTime() + NAIROBI_OFFSET_MS;
  const dayStart = local - (((local % (24 * HOUR_MS)) + 24 * HOUR_MS) % (24 * HOUR_MS));
  const hour = (local - dayStart) / HOUR_MS;
  if (hour >= w.startHour && hour < w.endHour) return { open: true, opensAt: now };
  const opensLocal = dayStart + w.startHour * HOUR_MS + (hour >= w.endHour ? 24 * HOUR_MS : 0);
  return { open: false, opensAt: new Date(opensLocal - NAIROBI_OFFSET_MS) };
}

/** A promotional text as it leaves: the opt-out instruction at its end (once). */
export async function withOptOutText(db: Queryable, body: string): Promise<string> {
  return withOptOutLine(body, await getSetting(db, 'sms_opt_out_text'));
}
