import { useState } from 'react';
import { Badge, Button, Card, Group, Modal, NativeSelect, Paper, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { can, formatOdds, resultSource, SELECTION_RESULTS, type AwaitingSelection, type SelectionResult, type Ticket } from '@betdesk/contract';
import { LoadState } from '@/components/load-state.tsx';
import { useRole } from '@/lib/auth.ts';
import { formatDate, formatDateTime } from '@/lib/format.ts';
import { useAwaitingResults } from '../api/get-awaiting-results.ts';
import { useEnterResults } from '../api/enter-results.ts';
import { useRecentTickets } from '../api/get-recent-tickets.ts';
import { matchName, RESULT_LABELS, STATUS_COLORS } from './result-labels.ts';

const RESULT_OPTIONS = SELECTION_RESULTS.map((value) => ({ value, label: RESULT_LABELS[value] }));

/** The least length of an admin's reason for a result other than the feed's (the server's rule too). */
const REASON_MIN = 10;

/**
 * An admin's correction of the feed's proposal (decision 070): another result and the reason, audited
 * and shown on the public record as "corrected: feed said …".
 */
function CorrectFeedDialog({ leg, onClose }: { leg: AwaitingSelection; onClose: () => void }) {
  const enter = useEnterResults();
  const options = RESULT_OPTIONS.filter((o) => o.value !== leg.proposed_result);
  const [result, setResult] = useState<SelectionResult>(options[0]!.value);
  const [reason, setReason] = useState('');
  const short = reason.trim().length < REASON_MIN;
  const save = async () => {
    try {
      await enter.mutateAsync({ results: [{ selection_id: leg.id, result, reason: reason.trim() }] });
      onClose();
    } catch {
      // The HTTP client shows the refusal; the dialog stays for another try.
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Correct the feed: ${matchName(leg)}`} data-testid="correct-feed-dialog">
      <Stack gap="sm">
        <Text size="sm">
          The feed says <b>{leg.proposed_result ? RESULT_LABELS[leg.proposed_result] : ''}</b> ({leg.proposal_basis}). Your result is
          audited and the public record shows it as corrected.
        </Text>
        <SegmentedControl
          size="xs"
          fullWidth
          aria-label={`Corrected result of ${matchName(leg)}`}
          data={options}
          value={result}
          onChange={(value) => setResult(value as SelectionResult)}
        />
        <Textarea
          label="Reason"
          description={`At least ${REASON_MIN} characters, e.g. what the official match report says`}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
          data-testid="correct-feed-reason"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={short} loading={enter.isPending} data-testid="correct-feed-save">
            Save correction
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The kicked-off selections without a result, oldest first: one tap per result, one save. */
function AwaitingResults({ canCorrect }: { canCorrect: boolean }) {
  const awaiting = useAwaitingResults();
  const enter = useEnterResults();
  const [chosen, setChosen] = useState<Record<number, SelectionResult>>({});
  const [correcting, setCorrecting] = useState<AwaitingSelection | null>(null);
  const picked = Object.entries(chosen).map(([id, result]) => ({ selection_id: Number(id), result }));
  const proposed = awaiting.data?.selections.filter((s) => s.proposed_result !== null && chosen[s.id] === undefined) ?? [];

  /** The feed's proposals taken as they are (decision 070): one click for one leg or for all. */
  const confirm = async (ids: number[]) => {
    try {
      await enter.mutateAsync({ results: ids.map((selection_id) => ({ selection_id, confirm_feed: true as const })) });
    } catch {
      // The HTTP client shows the refusal.
    }
  };

  const save = async () => {
    try {
      await enter.mutateAsync({ results: picked });
      setChosen({});
    } catch {
      // The HTTP client shows the refusal; the choices stay for another try.
    }
  };

  if (!awaiting.data) return <LoadState failed={awaiting.isError} what="selections" />;
  if (awaiting.data.selections.length === 0) {
    return (
      <Text c="dimmed" data-testid="awaiting-empty">
        Every selection that kicked off has its result.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {awaiting.data.selections.map((s) => (
        <Paper key={s.id} withBorder p="xs" data-testid={`awaiting-${s.id}`}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <div>
              <Text fw={600}>
                {matchName(s)} <Badge variant="light">{s.code}</Badge>
              </Text>
              <Text size="xs" c="dimmed">
                {s.competition} · {formatDateTime(s.kickoff)} · {s.market}: {s.pick} @{formatOdds(s.odds)}
                {!s.verified && ' · not verified'}
              </Text>
              {s.proposed_result && (
                <Group gap="xs" mt={4}>
                  <Text size="sm" data-testid={`proposal-${s.id}`}>
                    Feed: <b>{RESULT_LABELS[s.proposed_result]}</b> ({s.proposal_basis})
                  </Text>
                  <Button size="compact-xs" variant="light" onClick={() => void confirm([s.id])} loading={enter.isPending} data-testid={`confirm-${s.id}`}>
                    Confirm
                  </Button>
                  {canCorrect && (
                    <Button size="compact-xs" variant="subtle" color="orange" onClick={() => setCorrecting(s)} data-testid={`correct-feed-${s.id}`}>
                      Correct…
                    </Button>
                  )}
                </Group>
              )}
              {s.proposed_result && !canCorrect && (
                <Text size="xs" c="dimmed">
                  Only an admin can enter another result than the feed's.
                </Text>
              )}
            </div>
            {!s.proposed_result && (
              <SegmentedControl
                size="xs"
                fullWidth
                style={{ flex: '1 1 280px', maxWidth: 380 }}
                aria-label={`Result of ${matchName(s)}`}
                data={RESULT_OPTIONS}
                value={chosen[s.id] ?? ''}
                onChange={(value) => setChosen((all) => ({ ...all, [s.id]: value as SelectionResult }))}
              />
            )}
          </Group>
        </Paper>
      ))}
      {correcting && <CorrectFeedDialog leg={correcting} onClose={() => setCorrecting(null)} />}
      <Group justify="flex-end">
        {proposed.length > 1 && (
          <Button variant="light" onClick={() => void confirm(proposed.map((s) => s.id))} loading={enter.isPending} data-testid="confirm-all">
            Confirm {proposed.length} feed results
          </Button>
        )}
        <Button onClick={() => void save()} disabled={picked.length === 0} loading={enter.isPending} data-testid="results-save">
          Save {picked.length || ''} result{picked.length === 1 ? '' : 's'}
        </Button>
      </Group>
    </Stack>
  );
}

/** A recent ticket with its legs; an admin corrects an entered result in place (audited). */
function RecentTicket({ ticket, canCorrect }: { ticket: Ticket; canCorrect: boolean }) {
  const enter = useEnterResults();
  return (
    <Paper withBorder p="xs" data-testid={`ticket-${ticket.id}`}>
      <Group justify="space-between" mb={4} wrap="wrap">
        <Text fw={600}>
          {ticket.code} · {formatDate(`${ticket.match_date}T12:00:00Z`)} · @{formatOdds(ticket.combined_odds)}
        </Text>
        <Group gap="xs">
          {!ticket.counts && <Badge color="gray">Published after kick-off: not in the record</Badge>}
          <Badge color={STATUS_COLORS[ticket.status]}>
            {ticket.status}
            {ticket.profit_units !== null && ` ${ticket.profit_units >= 0 ? '+' : ''}${ticket.profit_units.toFixed(2)} u`}
          </Badge>
        </Group>
      </Group>
      {ticket.selections.map((s) => (
        <Group key={s.id} justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm">
            {matchName(s)} · {s.market}: {s.pick} @{formatOdds(s.odds)}
            {resultSource(s) === 'corrected' && s.feed_result && ` · corrected: feed said ${RESULT_LABELS[s.feed_result]}`}
            {resultSource(s) === 'feed' && ' · result from the feed'}
            {s.clv !== null && ` · CLV ${s.clv > 0 ? '+' : ''}${s.clv.toFixed(1)}%`}{' '}
            {!s.verified && (
              <Badge size="xs" color="gray" variant="outline">
                not verified
              </Badge>
            )}
          </Text>
          {canCorrect && s.result ? (
            <NativeSelect
              size="xs"
              aria-label={`Correct the result of ${matchName(s)}`}
              data={RESULT_OPTIONS}
              value={s.result}
              disabled={enter.isPending}
              onChange={(e) =>
                void enter
                  .mutateAsync({ results: [{ selection_id: s.id, result: e.currentTarget.value as SelectionResult }] })
                  .catch(() => {})
              }
            />
          ) : (
            <Text size="sm" c={s.result ? undefined : 'dimmed'}>
              {s.result ? RESULT_LABELS[s.result] : 'No result yet'}
            </Text>
          )}
        </Group>
      ))}
    </Paper>
  );
}

/** /tips/results: results of the selections that kicked off, and the latest tickets. */
export function EnterResultsPage() {
  const recent = useRecentTickets();
  const canCorrect = can(useRole(), 'correct:tip-results');
  return (
    <Stack>
      <Title order={1} size="h2">Enter results</Title>
      <Card withBorder>
        <AwaitingResults canCorrect={canCorrect} />
      </Card>
      <Title order={2} size="h3">Latest tickets</Title>
      <Text size="sm" c="dimmed">
        {canCorrect ? 'Change a result to correct it; the correction is audited.' : 'Only an admin can correct an entered result.'}
      </Text>
      {recent.data ? (
        <Stack gap="xs">
          {recent.data.tickets.map((t) => (
            <RecentTicket key={t.id} ticket={t} canCorrect={canCorrect} />
          ))}
        </Stack>
      ) : (
        <LoadState failed={recent.isError} what="tickets" />
      )}
    </Stack>
  );
}
