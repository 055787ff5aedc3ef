import { Box, Group, ScrollArea, Text, Tooltip } from '@mantine/core';

export interface ChartSeries {
  key: string;
  label: string;
  /** A Mantine colour variable, e.g. 'var(--mantine-color-teal-6)'. */
  color: string;
  /** More for who wants it (the codes behind a word), in the legend's tooltip. */
  hint?: string;
}

export interface ChartBar {
  /** Under the bar (a period or a name). */
  label: string;
  /** The figures of the bar, by series key (other fields are ignored). */
  values: object;
}

function valueOf(bar: ChartBar, key: string): number {
  const value = (bar.values as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : 0;
}

const HEIGHT = 180;
const MIN_BAR_PX = 6;

/**
 * Stacked bars drawn with flexbox, the way the dashboard's income chart is: no chart library to
 * download, readable at a glance, each bar's figures in its tooltip and aria-label. Negative values
 * (a loss) are drawn as zero in the stack; the tooltip shows them.
 */
export function BarChart({
  series,
  bars,
  format,
  grouped = false,
  'data-testid': testId,
}: {
  series: readonly ChartSeries[];
  bars: readonly ChartBar[];
  format: (value: number) => string;
  /** Side by side instead of stacked: for figures that do not add up (new vs lapsed, profit vs bonus). */
  grouped?: boolean;
  'data-testid'?: string;
}) {
  const positive = (bar: ChartBar, key: string) => Math.max(valueOf(bar, key), 0);
  const heightOf = (bar: ChartBar) =>
    grouped ? Math.max(0, ...series.map((s) => positive(bar, s.key))) : series.reduce((sum, s) => sum + positive(bar, s.key), 0);
  const max = Math.max(...bars.map(heightOf), 0);
  const describe = (bar: ChartBar) => `${bar.label}: ${series.map((s) => `${s.label} ${format(valueOf(bar, s.key))}`).join(', ')}`;
  const labelEvery = Math.max(1, Math.ceil(bars.length / 8));
  const px = (value: number) => Math.max((value / max) * HEIGHT, 2);
  return (
    <Box data-testid={testId}>
      <Group gap="md" mb="xs">
        {series.map((s) => (
          <Group key={s.key} gap={6} wrap="nowrap">
            <Box w={12} h={12} style={{ background: s.color, borderRadius: 2 }} />
            {s.hint ? (
              <Tooltip label={s.hint} withArrow multiline maw={280}>
                <Text size="xs" tabIndex={0} style={{ textDecoration: 'underline dotted' }}>
                  {s.label}
                </Text>
              </Tooltip>
            ) : (
              <Text size="xs">{s.label}</Text>
            )}
          </Group>
        ))}
        <Text size="xs" c="dimmed" ml="auto">
          Highest: {format(max)}
        </Text>
      </Group>
      {/* A chart wider than the phone scrolls sideways: its viewport takes the keyboard (axe: scrollable-region-focusable). */}
      <ScrollArea type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Chart, scrolls sideways' }}>
        <Box style={{ minWidth: bars.length * MIN_BAR_PX }}>
          <div style={{ display: 'flex', alignItems: 'flex-end', gap: bars.length > 60 ? 1 : 3, height: HEIGHT }} role="group" aria-label="Chart">
            {bars.map((bar, i) => (
              <Tooltip key={`${i}:${bar.label}`} label={describe(bar)} withArrow multiline maw={280}>
                <div
                  // Each bar is a picture named by its figures (a plain div may not carry a name).
                  role="img"
                  aria-label={describe(bar)}
                  data-testid="chart-bar"
                  style={{
                    flex: 1,
                    minWidth: MIN_BAR_PX - 1,
                    height: '100%',
                    display: 'flex',
                    flexDirection: grouped ? 'row' : 'column-reverse',
                    alignItems: grouped ? 'flex-end' : undefined,
                    gap: grouped ? 1 : 0,
                  }}
                >
                  {heightOf(bar) === 0 ? (
                    <div style={{ height: 1, flex: 1, alignSelf: 'flex-end', background: 'var(--mantine-color-gray-3)' }} />
                  ) : (
                    series.map((s) => {
                      const value = positive(bar, s.key);
                      if (grouped) return <div key={s.key} style={{ flex: 1, height: value > 0 ? px(value) : 0, background: s.color }} />;
                      return value > 0 ? <div key={s.key} style={{ height: px(value), background: s.color }} /> : null;
                    })
                  )}
                </div>
              </Tooltip>
            ))}
          </div>
          <div style={{ display: 'flex', gap: bars.length > 60 ? 1 : 3 }}>
            {bars.map((bar, i) => (
              <Text key={`${i}:${bar.label}`} size="xs" c="dimmed" style={{ flex: 1, minWidth: MIN_BAR_PX - 1, overflow: 'visible', whiteSpace: 'nowrap' }}>
                {i % labelEvery === 0 ? bar.label : ''}
              </Text>
            ))}
          </div>
        </Box>
      </ScrollArea>
    </Box>
  );
}
