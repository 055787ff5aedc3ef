import { useState } from 'react';
import { Group, NativeSelect, TextInput } from '@mantine/core';
import { DATE_PRESET_LABELS, DATE_PRESETS, presetOf, presetRange, type DatePreset } from './date-presets.ts';

export interface DateRangeFilterProps {
  from: string | undefined;
  to: string | undefined;
  onChange: (from: string | undefined, to: string | undefined) => void;
}

const OPTIONS = (['all', ...DATE_PRESETS, 'custom'] as const).map((value) => ({ value, label: DATE_PRESET_LABELS[value] }));

interface DayInputProps {
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (day: string | undefined) => void;
  'data-testid': string;
}

/** One end of the range: a date input, empty for no bound. */
function DayInput({ label, value, min, max, onChange, 'data-testid': testId }: DayInputProps) {
  return (
    <TextInput
      type="date"
      aria-label={label}
      value={value ?? ''}
      min={min}
      max={max}
      onChange={(event) => onChange(event.currentTarget.value || undefined)}
      w={150}
      data-testid={testId}
    />
  );
}

/**
 * From/to of a dated list, in Africa/Nairobi days, with presets. A preset fills both dates; the
 * date inputs edit them directly (a custom range). The list's URL keeps the two dates. Two presets
 * can be the same days (on a Sunday "This week" and "Last 7 days"; on the 1st "Today" and "This
 * month"): the one the user chose stays shown while the dates are its own; a range opened from a URL
 * shows the first preset it is.
 */
export function DateRangeFilter({ from, to, onChange }: DateRangeFilterProps) {
  const [chosen, setChosen] = useState<DatePreset | null>(null);
  const chosenRange = chosen ? presetRange(chosen) : null;
  const preset = chosen && chosenRange?.from === from && chosenRange?.to === to ? chosen : presetOf({ from, to });
  const choose = (value: string) => {
    setChosen((DATE_PRESETS as readonly string[]).includes(value) ? (value as DatePreset) : null);
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
      <DayInput label="From" value={from} max={to} onChange={(day) => onChange(day, to)} data-testid="date-from" />
      <DayInput label="To" value={to} min={from} onChange={(day) => onChange(from, day)} data-testid="date-to" />
    </Group>
  );
}
