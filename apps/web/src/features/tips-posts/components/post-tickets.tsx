import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { formatOdds, type Ticket } from '@betdesk/contract';
import { formatDateTime } from '@/lib/format.ts';

const RESULTS: Record<string, string> = { won: 'Won', lost: 'Lost', void: 'Void', half_won: '½ Won', half_lost: '½ Lost' };

/** The tickets a post attaches: each bet's selections of the match date with odds and results. */
export function PostTickets({ tickets }: { tickets: Ticket[] }) {
  return (
    <Card withBorder data-testid="post-tickets">
      <Stack>
        {tickets.length === 0 && <Text c="dimmed">No ticket has been entered for these bets on the match date yet.</Text>}
        {tickets.map((ticket) => (
          <Stack key={ticket.id} gap="xs">
            <Group justify="space-between">
              <Title order={2} size="h4">
                {ticket.bet_category} ({ticket.code}) · total @{formatOdds(ticket.combined_odds)}
              </Title>
              <Badge color={ticket.status === 'won' ? 'green' : ticket.status === 'lost' ? 'red' : 'gray'}>{ticket.status}</Badge>
            </Group>
            <Table.ScrollContainer minWidth={520}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Match</Table.Th>
                    <Table.Th>Kick-off</Table.Th>
                    <Table.Th>Tip</Table.Th>
                    <Table.Th>Odds</Table.Th>
                    <Table.Th>Result</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {ticket.selections.map((s) => (
                    <Table.Tr key={s.id}>
                      <Table.Td>
                        {s.home} - {s.away}
                        <Text size="xs" c="dimmed">
                          {s.competition}
                        </Text>
                      </Table.Td>
                      <Table.Td>{formatDateTime(s.kickoff)}</Table.Td>
                      <Table.Td>
                        {s.market}: {s.pick}
                      </Table.Td>
                      <Table.Td>{formatOdds(s.odds)}</Table.Td>
                      <Table.Td>{s.result ? RESULTS[s.result] : '–'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Text size="xs" c="dimmed">
              Published {formatDateTime(ticket.published_at)}
            </Text>
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
