import { Group, NativeSelect, TextInput } from '@mantine/core';
import { DATE_PRESET_LABELS, DATE_PRESETS, presetOf, presetRange, type DatePreset } from './date-presets.ts';

export interface DateRangeFilterProps {
  from: string | undefined;
  to: string | undefined;
  onChange: (from: string | undefined, to: string | undefined) => void;
}

const OPTIONS = (['all', ...DATE_PRESETS, 'custom'] as const).map((value) => ({ value, label: DATE_PRESET_LABELS[value] }));

/**
 * From/to of a dated list, in Africa/Nairobi days, with presets. A preset fills both dates; the
 * date inputs edit them directly (a custom range). The list's URL keeps the two dates.
 */
export function DateRangeFilter({ from, to, onChange }: DateRangeFilterProps) {
  const preset = presetOf({ from, to });
  const choose = (value: string) => {
    if (value === 'all') onChange(undefined, undefined);
    else if (value === 'custom') onChange(from ?? presetRange('today').from, to ?? presetRange('today').to);
    else onChange(presetRange(value as DatePreset).from, presetRange(value as DatePreset).to);
  };
  return (
    <Group gap="xs" wrap="wrap" data-testid="date-range">
      <NativeSelect
        aria-label="Dates"
        data={OPTIONS}
        value={preset}
        onChange={(event) => choose(event.currentTarget.value)}
        w={140}
        data-testid="date-preset"
      />
      <TextInput
        type="date"
        aria-label="From"
        value={from ?? ''}
        max={to}
        onChange={(event) => onChange(event.currentTarget.value || undefined, to)}
        w={150}
        data-testid="date-from"
      />
      <TextInput
        type="date"
        aria-label="To"
        value={to ?? ''}
        min={from}
        onChange={(event) => onChange(from, event.currentTarget.value || undefined)}
        w={150}
        data-testid="date-to"
      />
    </Group>
  );
}
