import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface Figure {
  label: string;
  value: ReactNode;
  color?: string;
  testId?: string;
  /** What the figure counts, in a line under it (e.g. "all M-Pesa payments received"). */
  hint?: ReactNode;
  /** The list the figure counts: the figure is a link to it. */
  to?: string;
}

/**
 * A row of summary boxes (totals, counts) above a table or on the dashboard. `compact` keeps short
 * counts side by side on a phone too (the staff dashboard's first screen on a phone).
 */
export function FigureBoxes({ figures, compact = false }: { figures: Figure[]; compact?: boolean }) {
  return (
    <SimpleGrid
      cols={compact ? { base: figures.length } : { base: 1, xs: 2, md: Math.min(figures.length, 4) }}
      spacing={compact ? { base: 'xs', sm: 'md' } : undefined}
    >
      {figures.map((f) => (
        <Paper key={f.label} withBorder p={compact ? { base: 'xs', sm: 'md' } : 'md'} radius="md" data-testid={f.testId}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {f.label}
          </Text>
          {/* An amount reads as one figure: it never wraps mid-number. */}
          {f.to ? (
            <Anchor component={Link} to={f.to} fz={24} fw={700} c={f.color} style={{ whiteSpace: 'nowrap', display: 'block' }} aria-label={`${f.label}: ${String(f.value)}, open the list`}>
              {f.value}
            </Anchor>
          ) : (
            <Text fz={24} fw={700} c={f.color} style={{ whiteSpace: 'nowrap' }}>
              {f.value}
            </Text>
          )}
          {f.hint && (
            <Text size="xs" c="dimmed" mt={2}>
              {f.hint}
            </Text>
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
