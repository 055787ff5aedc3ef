import { Card, Group, Text, Title } from '@mantine/core';
import { formatMoney } from '@/lib/format.ts';
import classes from './income-chart.module.css';

const HEIGHT = 140;

/** Income per day as bars (flexbox and a CSS hover tip: nothing to load, readable at a glance). */
export function IncomeChart({ days }: { days: { day: string; amount: number }[] }) {
  const max = Math.max(...days.map((d) => d.amount), 1);
  const total = days.reduce((sum, d) => sum + d.amount, 0);
  return (
    <Card withBorder data-testid="income-chart">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">M-Pesa received, last {days.length} days</Title>
        <Text fw={600}>{formatMoney(total)}</Text>
      </Group>
      <div className={classes.bars} style={{ height: HEIGHT }}>
        {days.map((d) => {
          const tip = `${d.day}: ${formatMoney(d.amount)}`;
          return (
            <div
              key={d.day}
              role="img"
              aria-label={tip}
              data-tip={tip}
              data-paid={d.amount > 0 || undefined}
              className={classes.bar}
              style={{ height: Math.max((d.amount / max) * HEIGHT, d.amount > 0 ? 3 : 1) }}
            />
          );
        })}
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
