import { useState } from 'react';
import { Badge, Button, Card, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { betCategoryLabel, exportTrackRecord, formatOdds, type RecordQuery, type TrackRecord } from '@betdesk/contract';
import { DateRangeFilter } from '@/components/data-table/date-range-filter.tsx';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { LoadState } from '@/components/load-state.tsx';
import { downloadFile } from '@/lib/http.ts';
import { formatDate } from '@/lib/format.ts';
import { useBetCategories } from '../api/get-bet-categories.ts';
import { useTrackRecord } from '../api/get-track-record.ts';
import { useRecordTickets } from '../api/get-record-tickets.ts';
import { matchName, STATUS_COLORS } from './result-labels.ts';
import { ProfitChart, signedUnits } from './profit-chart.tsx';

const percent = (value: number | null) => (value === null ? '–' : `${value > 0 ? '+' : ''}${value.toFixed(1)} %`);
const day = (d: string) => formatDate(`${d}T12:00:00Z`);

function periodText(record: TrackRecord): string {
  if (record.from && record.to) return `${day(record.from)} – ${day(record.to)}`;
  if (record.from) return `since ${day(record.from)}`;
  if (record.to) return `until ${day(record.to)}`;
  return 'all dates';
}

/** The sentence the business shows: rate, settled count and period side by side. */
function headline(name: string, r: TrackRecord): string {
  if (r.settled === 0) return `${name}: no settled ticket, ${periodText(r)}`;
  const hit = r.hit_rate === null ? 'no ticket decided' : `${r.hit_rate.toFixed(1)} % of ${r.won + r.lost} decided tickets won`;
  return `${name}: ${hit}, ${signedUnits(r.profit_units)} units, ROI ${percent(r.roi)} over ${r.settled} settled tickets, ${periodText(r)}`;
}

/**
 * How much the figures can be trusted on this few tickets: the settled count and the hit rate's 95 %
 * confidence interval (Wilson score, computed by the server).
 */
export function sampleNote(r: TrackRecord): string {
  if (r.settled === 0) return 'No settled ticket yet: nothing to judge.';
  const decided = r.won + r.lost;
  const interval = r.hit_rate_interval
    ? `the true hit rate is between ${r.hit_rate_interval.low.toFixed(1)} % and ${r.hit_rate_interval.high.toFixed(1)} % (95 % confidence, Wilson score)`
    : 'no ticket decided, so no hit rate';
  const few = r.settled < 100 ? ' Too few tickets to tell skill from luck; a positive average CLV is the earlier sign.' : '';
  return `${r.settled} settled ticket${r.settled === 1 ? '' : 's'} (${decided} decided): ${interval}.${few}`;
}

function RecordFigures({ record }: { record: TrackRecord }) {
  return (
    <Stack>
      <FigureBoxes
        figures={[
          { label: 'Hit rate', value: record.hit_rate === null ? '–' : `${record.hit_rate.toFixed(1)} %`, hint: `won / decided (${record.won} of ${record.won + record.lost})`, testId: 'record-hit-rate' },
          { label: 'Profit', value: `${signedUnits(record.profit_units)} u`, color: record.profit_units < 0 ? 'red' : 'green', hint: '1 unit per ticket', testId: 'record-profit' },
          { label: 'ROI', value: percent(record.roi), hint: `profit / ${record.settled} units staked`, testId: 'record-roi' },
          { label: 'Yield', value: percent(record.roi), hint: 'profit per ticket at 1 unit each (flat stakes: equals ROI)', testId: 'record-yield' },
        ]}
      />
      <FigureBoxes
        figures={[
          {
            label: 'Average CLV',
            value: percent(record.average_clv),
            color: record.average_clv === null ? undefined : record.average_clv < 0 ? 'red' : 'green',
            hint: 'odds taken ÷ closing odds − 1, over the legs with closing odds',
            testId: 'record-average-clv',
          },
          { label: 'Average odds', value: record.average_odds === null ? '–' : formatOdds(record.average_odds), hint: 'of the settled tickets' },
          { label: 'Not verified', value: record.unverified_legs, hint: 'legs not checked against the sports-data feed', testId: 'record-unverified' },
        ]}
      />
      <Text size="sm" data-testid="record-sample-note">
        {sampleNote(record)}
      </Text>
      <FigureBoxes
        figures={[
          { label: 'Tickets', value: record.tickets, hint: `${record.settled} settled, ${record.pending} pending`, testId: 'record-tickets' },
          { label: 'Won / lost / void', value: `${record.won} / ${record.lost} / ${record.void}`, testId: 'record-wlv' },
          { label: 'Current streak', value: record.current_streak > 0 ? `+${record.current_streak}` : record.current_streak, hint: '+ won in a row, − lost in a row', testId: 'record-streak' },
          { label: 'Longest streaks', value: `${record.longest_win_streak} W · ${record.longest_losing_streak} L` },
        ]}
      />
    </Stack>
  );
}

/** The period's tickets leg by leg: the odds taken, the closing odds, the CLV and whether the feed checked the leg. */
function RecordLegs({ query }: { query: RecordQuery }) {
  const list = useRecordTickets(query);
  if (!list.data) return <LoadState failed={list.isError} what="tickets" />;
  if (list.data.tickets.length === 0) return <Text c="dimmed">No ticket in this period.</Text>;
  return (
    <Stack gap="xs">
      {list.data.tickets.map((t) => (
        <Paper key={t.id} withBorder p="xs" data-testid={`record-ticket-${t.id}`}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text fw={600} size="sm">
              {t.code} · {day(t.match_date)} · @{formatOdds(t.combined_odds)}
            </Text>
            <Badge color={STATUS_COLORS[t.status]}>{t.status}</Badge>
          </Group>
          {t.selections.map((s) => (
            <Text key={s.id} size="sm" data-testid={`record-leg-${s.id}`}>
              {matchName(s)} · {s.market}: {s.pick} @{formatOdds(s.odds)}
              {s.closing_odds !== null && ` · closing ${formatOdds(s.closing_odds)}`}
              {' · CLV '}
              {s.clv === null ? '–' : percent(s.clv)}{' '}
              {!s.verified && (
                <Badge size="xs" color="gray" variant="outline">
                  not verified
                </Badge>
              )}
            </Text>
          ))}
        </Paper>
      ))}
    </Stack>
  );
}

/** /tips/record: the record of a bet category (or all) over a period, its chart and CSV export. */
export function TrackRecordPage() {
  const categories = useBetCategories();
  const [categoryId, setCategoryId] = useState('');
  const [range, setRange] = useState<{ from?: string; to?: string }>({});
  const query = { ...(categoryId ? { bet_category_id: Number(categoryId) } : {}), ...range };
  const record = useTrackRecord(query);
  const chosen = categories.data?.find((c) => String(c.id) === categoryId);
  const name = chosen ? chosen.name : 'All categories';
  return (
    <Stack>
      <Title order={1} size="h2">Track Record</Title>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <NativeSelect
            aria-label="Bet category"
            data={[{ value: '', label: 'All categories' }, ...(categories.data ?? []).map((c) => ({ value: String(c.id), label: betCategoryLabel(c) }))]}
            value={categoryId}
            onChange={(e) => setCategoryId(e.currentTarget.value)}
            data-testid="record-category"
          />
          <DateRangeFilter
            from={range.from}
            to={range.to}
            onChange={(from, to) => setRange({ ...(from ? { from } : {}), ...(to ? { to } : {}) })}
          />
        </Group>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} />}
          onClick={() => void downloadFile(exportTrackRecord.path, query, 'track-record.csv').catch(() => {})}
          data-testid="record-export"
        >
          Export CSV
        </Button>
      </Group>
      {record.data ? (
        <>
          <Card withBorder>
            <Text fw={600} data-testid="record-headline">
              {headline(name, record.data)}
            </Text>
            <Text size="xs" c="dimmed">
              Computed from the entered results. A ticket published after its first kick-off never counts.
            </Text>
          </Card>
          <RecordFigures record={record.data} />
          <ProfitChart curve={record.data.profit_curve} />
          <Card withBorder>
            <Title order={2} size="h4" mb="xs">
              Legs and closing line value
            </Title>
            <RecordLegs query={query} />
          </Card>
        </>
      ) : (
        <LoadState failed={record.isError} what="record" />
      )}
    </Stack>
  );
}
