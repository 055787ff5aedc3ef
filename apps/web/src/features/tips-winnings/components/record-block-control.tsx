import { useState } from 'react';
import { Button, Group, Select, Text } from '@mantine/core';
import {
  RECORD_BLOCK_ALL,
  RECORD_BLOCK_PERIOD_LABELS,
  RECORD_BLOCK_PERIODS,
  recordBlockMarker,
  type RecordBlockPeriod,
} from '@betdesk/contract';
import { useBetCategories } from '../api/get-bet-categories.ts';

const periodChoices = RECORD_BLOCK_PERIODS.map((p) => ({ value: p, label: RECORD_BLOCK_PERIOD_LABELS[p] }));

/**
 * Places a record block (a category and a period) in the page: readers see the figures computed
 * from the entered results at the time they read it, so the page is never retyped.
 */
export function RecordBlockControl({ onInsert }: { onInsert: (marker: string) => void }) {
  const categories = useBetCategories();
  const [code, setCode] = useState<string>(RECORD_BLOCK_ALL);
  const [period, setPeriod] = useState<RecordBlockPeriod>('this-month');
  const choices = [
    { value: RECORD_BLOCK_ALL, label: 'All categories' },
    // A category coded ALL from before that code was refused would be a second "ALL" option, which the Select refuses by throwing.
    ...(categories.data ?? []).filter((c) => c.code !== RECORD_BLOCK_ALL).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` })),
  ];
  return (
    <Group align="flex-end" gap="sm" data-testid="record-block-control">
      <Select label="Record of" data={choices} value={code} onChange={(v) => setCode(v ?? RECORD_BLOCK_ALL)} allowDeselect={false} w={220} />
      <Select
        label="Period"
        data={periodChoices}
        value={period}
        onChange={(v) => setPeriod((v as RecordBlockPeriod | null) ?? 'this-month')}
        allowDeselect={false}
        w={160}
      />
      <Button variant="default" onClick={() => onInsert(recordBlockMarker(code, period))}>
        Insert record block
      </Button>
      <Text size="sm" c="dimmed" maw={320}>
        Readers see the current figures in its place: settled tickets, hit rate, profit and ROI.
      </Text>
    </Group>
  );
}
