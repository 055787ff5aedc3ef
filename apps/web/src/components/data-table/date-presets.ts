import { DATE_PRESETS, presetRange, type DatePreset } from '@betdesk/contract';

/** The presets themselves live in the contract: the server renders record blocks with them too. */
export { addDays, DATE_PRESETS, presetRange, type DatePreset, type DayRange } from '@betdesk/contract';

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

/** Which preset a range is today: 'all' with no bound, 'custom' when no preset gives it. */
export function presetOf(range: { from?: string; to?: string }, now: Date = new Date()): DatePreset | 'all' | 'custom' {
  if (!range.from && !range.to) return 'all';
  for (const preset of DATE_PRESETS) {
    const r = presetRange(preset, now);
    if (r.from === range.from && r.to === range.to) return preset;
  }
  return 'custom';
}
