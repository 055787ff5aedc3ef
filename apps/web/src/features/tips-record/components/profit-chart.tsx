import { Card, Group, Text, Title } from '@mantine/core';
import type { TrackRecord } from '@betdesk/contract';
import { formatDate } from '@/lib/format.ts';

const WIDTH = 600;
const HEIGHT = 160;

export const signedUnits = (units: number) => `${units > 0 ? '+' : ''}${units.toFixed(2)}`;
const day = (d: string) => formatDate(`${d}T12:00:00Z`);

/**
 * Cumulative profit in units after each match date, as a line over the zero line (plain SVG like
 * the dashboard's income bars: nothing to load).
 */
export function ProfitChart({ curve }: { curve: TrackRecord['profit_curve'] }) {
  const values = [0, ...curve.map((p) => p.profit_units)];
  const top = Math.max(...values);
  const bottom = Math.min(...values);
  const span = top - bottom || 1;
  const y = (units: number) => HEIGHT - ((units - bottom) / span) * HEIGHT;
  const x = (index: number) => (index / Math.max(values.length - 1, 1)) * WIDTH;
  const points = values.map((units, i) => `${x(i).toFixed(1)},${y(units).toFixed(1)}`).join(' ');
  const last = curve.at(-1);
  const label = last
    ? `Cumulative profit: ${signedUnits(last.profit_units)} units after ${day(last.match_date)}`
    : 'No settled ticket in this period';
  return (
    <Card withBorder data-testid="profit-chart">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">Cumulative profit (units)</Title>
        <Text fw={600} c={last && last.profit_units < 0 ? 'red' : 'green'} data-testid="profit-chart-last">
          {last ? signedUnits(last.profit_units) : '0.00'}
        </Text>
      </Group>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" width="100%" height={HEIGHT} role="img" aria-label={label}>
        <line x1={0} x2={WIDTH} y1={y(0)} y2={y(0)} stroke="var(--mantine-color-gray-5)" strokeDasharray="4 4" vectorEffect="non-scaling-stroke" />
        {curve.length > 0 && (
          <polyline
            points={points}
            fill="none"
            stroke="var(--mantine-color-blue-6)"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
            data-testid="profit-line"
          />
        )}
      </svg>
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          {curve[0] ? day(curve[0].match_date) : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {last ? day(last.match_date) : label}
        </Text>
      </Group>
    </Card>
  );
}
