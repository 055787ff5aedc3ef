import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Grid, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { combinedOdds, formatOdds, ticketSmsText, type FeedFixture, type FixtureRef, type SelectionInput, type SmsTip, type Ticket } from '@betdesk/contract';
import { formatDateTime } from '@/lib/format.ts';
import { isHttpError } from '@/lib/http.ts';
import { useFeedFixtures } from '../api/get-feed-fixtures.ts';
import { useStoreTicket } from '../api/store-ticket.ts';

/** Each input's share of a 24-column row on a wide screen; two a row on a phone. */
const FIELDS = [
  { key: 'home', label: 'Home', wide: 4 },
  { key: 'away', label: 'Away', wide: 4 },
  { key: 'competition', label: 'Competition', wide: 4 },
  { key: 'kickoff', label: 'Kick-off', wide: 5 },
  { key: 'market', label: 'Market', wide: 3 },
  { key: 'pick', label: 'Pick', wide: 2 },
  { key: 'odds', label: 'Odds', wide: 2 },
] as const;
type Field = (typeof FIELDS)[number]['key'];
/** The fields a feed fixture fills in (decision 070): shown, not typed. */
const FROM_FEED: readonly Field[] = ['home', 'away', 'competition', 'kickoff'];
type Draft = Record<Field, string> & { fixture: FixtureRef | null };

const EMPTY: Draft = { home: '', away: '', competition: '', kickoff: '', market: '', pick: '', odds: '', fixture: null };

/** An instant as the kick-off input shows it: Africa/Nairobi wall time (UTC+3 all year). */
const nairobiLocal = (iso: string) => new Date(Date.parse(iso) + 3 * 3_600_000).toISOString().slice(0, 16);

const draftsOf = (ticket: Ticket | undefined): Draft[] =>
  ticket?.selections.map((s) => ({
    home: s.home,
    away: s.away,
    competition: s.competition,
    kickoff: nairobiLocal(s.kickoff),
    market: s.market,
    pick: s.pick,
    // A fixture leg priced by the feed is sent again without odds, so it stays as it was.
    odds: s.fixture && s.odds_source !== 'typed' ? '' : formatOdds(s.odds),
    fixture: s.fixture,
  })) ?? [];

const fixtureKey = (f: FixtureRef) => `${f.provider}:${f.id}`;
const fixtureLabel = (f: FeedFixture) => `${f.home} – ${f.away} · ${f.competition} · ${nairobiLocal(f.kickoff_at).slice(11)}`;

/** A draft as the store endpoint takes it: a feed fixture leg, or a typed match. */
function legOf(d: Draft): SelectionInput {
  if (d.fixture) return { fixture: d.fixture, market: d.market, selection: d.pick, ...(d.odds.trim() === '' ? {} : { odds: Number(d.odds) }) };
  return { home: d.home, away: d.away, competition: d.competition, kickoff: d.kickoff, market: d.market, pick: d.pick, odds: Number(d.odds) };
}

/**
 * A category's ticket of the day as selections with odds. Saving it stores the ticket (its
 * publication time) and writes the SMS text from it, which stays editable before sending.
 */
export function TicketEditor({
  tip,
  matchDate,
  ticket,
  onSmsText,
}: {
  tip: SmsTip;
  matchDate: string;
  ticket: Ticket | undefined;
  onSmsText: (text: string) => void;
}) {
  const [drafts, setDrafts] = useState<Draft[]>(() => draftsOf(ticket));
  const [saved, setSaved] = useState<Ticket | undefined>(ticket);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const store = useStoreTicket();
  const fixtures = useFeedFixtures({});
  const feedFixtures = fixtures.data?.fixtures ?? [];
  const fixtureOptions = feedFixtures.map((f) => ({ value: fixtureKey(f), label: fixtureLabel(f) }));
  const testId = `ticket-${tip.code}`;

  const edit = (index: number, field: Field, value: string) =>
    setDrafts((all) => all.map((d, i) => (i === index ? { ...d, [field]: value } : d)));

  /** Picking a fixture fills the match from the feed; clearing it makes the leg typed again. */
  const pickFixture = (index: number, key: string | null) => {
    const f = feedFixtures.find((x) => fixtureKey(x) === key);
    setDrafts((all) =>
      all.map((d, i) =>
        i !== index
          ? d
          : f
            ? { ...d, fixture: { provider: f.provider, id: f.id }, home: f.home, away: f.away, competition: f.competition, kickoff: nairobiLocal(f.kickoff_at) }
            : { ...d, fixture: null },
      ),
    );
  };

  const save = async () => {
    setErrors({});
    try {
      const answer = await store.mutateAsync({
        bet_category_id: tip.bet_category_id,
        match_date: matchDate,
        selections: drafts.map(legOf),
      });
      setSaved(answer.ticket);
      onSmsText(ticketSmsText(tip.code, matchDate, answer.ticket.selections));
    } catch (error) {
      if (isHttpError(error) && error.errors) {
        setErrors(Object.fromEntries(Object.entries(error.errors).map(([field, messages]) => [field, messages.join(' ')])));
      }
    }
  };

  const odds = drafts.map((d) => Number(d.odds)).filter((n) => n > 1);
  const priced = drafts.every((d) => d.fixture || Number(d.odds) > 1);
  return (
    <Stack gap="xs" data-testid={testId}>
      {drafts.map((draft, index) => (
        <Group key={index} align="flex-start" wrap="nowrap" gap="xs" data-testid={`${testId}-leg-${index}`}>
          <Grid columns={24} gutter="xs" style={{ flex: 1 }}>
            {fixtureOptions.length > 0 && (
              <Grid.Col span={24}>
                <Select
                  size="xs"
                  label="Fixture from the feed"
                  placeholder="Search a team, or type the match below"
                  searchable
                  clearable
                  data={fixtureOptions}
                  value={draft.fixture ? fixtureKey(draft.fixture) : null}
                  onChange={(key) => pickFixture(index, key)}
                  error={errors[`selections.${index}.fixture`]}
                  data-testid={`${testId}-leg-${index}-fixture`}
                />
              </Grid.Col>
            )}
            {FIELDS.map(({ key, label, wide }) => (
              <Grid.Col key={key} span={{ base: key === 'kickoff' ? 24 : 12, sm: key === 'kickoff' ? 12 : 6, lg: wide }}>
                <TextInput
                  size="xs"
                  label={label}
                  type={key === 'kickoff' ? 'datetime-local' : 'text'}
                  step={key === 'kickoff' ? 1 : undefined}
                  inputMode={key === 'odds' ? 'decimal' : undefined}
                  value={draft[key]}
                  readOnly={draft.fixture !== null && FROM_FEED.includes(key)}
                  placeholder={draft.fixture !== null && key === 'odds' ? 'feed' : undefined}
                  onChange={(e) => edit(index, key, e.currentTarget.value)}
                  error={errors[`selections.${index}.${key}`] ?? (key === 'pick' ? errors[`selections.${index}.selection`] : undefined)}
                />
              </Grid.Col>
            ))}
          </Grid>
          {saved?.selections[index] && (
            <Badge
              mt={fixtureOptions.length > 0 ? 44 : 26}
              size="xs"
              variant="light"
              color={saved.selections[index].verified ? 'teal' : 'gray'}
              data-testid={`${testId}-leg-${index}-verified`}
            >
              {saved.selections[index].verified ? `verified @${formatOdds(saved.selections[index].odds)}` : 'not verified'}
            </Badge>
          )}
          <ActionIcon
            variant="subtle"
            color="red"
            mt={22}
            aria-label={`Remove selection ${index + 1}`}
            onClick={() => setDrafts((all) => all.filter((_, i) => i !== index))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {errors.selections && (
        <Alert color="red" p="xs">
          {errors.selections}
        </Alert>
      )}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="xs" c="dimmed" data-testid={`${testId}-status`}>
          {saved
            ? `Published ${formatDateTime(saved.published_at)}${saved.counts ? '' : ' (after kick-off: not in the record)'} · total @${formatOdds(saved.combined_odds)}`
            : drafts.length > 0 && priced
              ? odds.length === drafts.length
                ? `Not saved · total @${formatOdds(combinedOdds(odds))}`
                : 'Not saved · the feed prices the fixture legs when published'
              : 'Free text only: it does not count in the track record'}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setDrafts((all) => [...all, { ...EMPTY }])}>
            Add selection
          </Button>
          {drafts.length > 0 && (
            <Button size="xs" onClick={() => void save()} loading={store.isPending} data-testid={`${testId}-save`}>
              Publish ticket &amp; write SMS
            </Button>
          )}
        </Group>
      </Group>
    </Stack>
  );
}
