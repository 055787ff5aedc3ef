import { Card, Group, Text, Title, Tooltip } from '@mantine/core';
import { formatMoney } from '@/lib/format.ts';

const HEIGHT = 140;

/** Income per day as bars (plain SVG-free flexbox: nothing to load, readable at a glance). */
export function IncomeChart({ days }: { days: { day: string; amount: number }[] }) {
  const max = Math.max(...days.map((d) => d.amount), 1);
  const total = days.reduce((sum, d) => sum + d.amount, 0);
  return (
    <Card withBorder data-testid="income-chart">
      <Group justify="space-between" mb="sm">
        <Title order={4}>M-Pesa received, last {days.length} days</Title>
        <Text fw={600}>{formatMoney(total)}</Text>
      </Group>
      <div style={{ display: 'flex', alignItems: 'flex-end', gap: 3, height: HEIGHT }}>
        {days.map((d) => (
          <Tooltip key={d.day} label={`${d.day}: ${formatMoney(d.amount)}`} withArrow>
            <div
              aria-label={`${d.day}: ${formatMoney(d.amount)}`}
              style={{
                flex: 1,
                height: Math.max((d.amount / max) * HEIGHT, d.amount > 0 ? 3 : 1),
                background: d.amount > 0 ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-gray-3)',
                borderRadius: 2,
              }}
            />
          </Tooltip>
        ))}
      </div>
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          {days[0]?.day}
        </Text>
        <Text size="xs" c="dimmed">
          {days[days.length - 1]?.day}
        </Text>
      </Group>
    </Card>
  );
}
