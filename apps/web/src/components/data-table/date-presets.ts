import { nairobiDayOf } from '@betdesk/contract';

/**
 * The date-range presets of the dated lists, computed in Africa/Nairobi days: "today" is the
 * business's today whatever the browser's zone. Weeks start on Monday.
 */
export const DATE_PRESETS = ['today', 'yesterday', 'this-week', 'last-7-days', 'this-month', 'last-month'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const DATE_PRESET_LABELS: Record<DatePreset | 'all' | 'custom', string> = {
  all: 'All dates',
  today: 'Today',
  yesterday: 'Yesterday',
  'this-week': 'This week',
  'last-7-days': 'Last 7 days',
  'this-month': 'This month',
  'last-month': 'Last month',
  custom: 'Custom',
};

export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A YYYY-MM-DD day moved by `days`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The inclusive Nairobi days a preset covers at the instant `now`. */
export function presetRange(preset: DatePreset, now: Date = new Date()): DayRange {
  const today = nairobiDayOf(now);
  const [year, month] = today.split('-').map(Number) as [number, number];
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const day = addDays(today, -1);
      return { from: day, to: day };
    }
    case 'this-week': {
      const weekday = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 = Sunday
      return { from: addDays(today, -((weekday + 6) % 7)), to: today };
    }
    case 'last-7-days':
      return { from: addDays(today, -6), to: today };
    case 'this-month':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'last-month': {
      const first = new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10);
      const last = new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);
      return { from: first, to: last };
    }
  }
}

/** Which preset a range is today: 'all' with no bound, 'custom' when no preset gives it. */
export function presetOf(range: { from?: string; to?: string }, now: Date = new Date()): DatePreset | 'all' | 'custom' {
  if (!range.from && !range.to) return 'all';
  for (const preset of DATE_PRESETS) {
    const r = presetRange(preset, now);
    if (r.from === range.from && r.to === range.to) return preset;
  }
  return 'custom';
}
