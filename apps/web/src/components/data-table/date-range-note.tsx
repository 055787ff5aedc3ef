import { Text } from '@mantine/core';
import { formatDate } from '@/lib/format.ts';

/** Noon of a Nairobi day, so formatting it in Nairobi time gives that day. */
function day(value: string): string {
  return formatDate(`${value}T09:00:00Z`);
}

/** Says which days a dated screen's rows and totals cover, so a figure is never read as all time. */
export function DateRangeNote({ from, to }: { from: string | undefined; to: string | undefined }) {
  if (!from && !to) return null;
  const text =
    from && to ? (from === to ? `On ${day(from)}` : `From ${day(from)} to ${day(to)}`) : from ? `From ${day(from)}` : `Up to ${day(to as string)}`;
  return (
    <Text size="sm" c="dimmed" data-testid="date-range-note">
      {text} (Nairobi days): the rows, totals and export below cover these dates only.
    </Text>
  );
}
