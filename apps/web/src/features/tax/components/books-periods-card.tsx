import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { CloseBooksForm, nairobiDayOf, type BooksPeriod } from '@betdesk/contract';
import { ApproveWithCodeModal } from '@/components/approve-with-code-modal.tsx';
import { monthName } from '@/components/closed-month-banner.tsx';
import { FormModal } from '@/components/form-modal/index.ts';
import { formatDateTime } from '@/lib/format.ts';
import { queryKeys } from '@/lib/query-keys.ts';
import { askToCloseMonth, askToReopenMonth, confirmMonth, useBooksPeriods } from '../api/books-periods.ts';

/**
 * The Tax screen's Books periods card (decision 075): an admin closes an ended month after filing
 * its return (with the return's reference), a second admin confirms with their own code; reopening
 * is asked and confirmed the same way. The list says which months are closing, closed or reopening.
 * Lives in: apps/web/src/features/tax/components/books-periods-card.tsx
 */

const STATE_LABEL: Record<BooksPeriod['state'], { label: string; color: string }> = {
  open: { label: 'Open (reopened)', color: 'gray' },
  closing: { label: 'Closing: awaiting confirmation', color: 'yellow' },
  closed: { label: 'Closed', color: 'blue' },
  reopening: { label: 'Reopening: awaiting confirmation', color: 'orange' },
};

function lastMonth(): string {
  const [y, m] = nairobiDayOf(new Date()).slice(0, 7).split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

export function BooksPeriodsCard() {
  const periods = useBooksPeriods();
  const queryClient = useQueryClient();
  const [month, setMonth] = useState(lastMonth);
  const [closing, setClosing] = useState(false);
  const [confirming, setConfirming] = useState<BooksPeriod | null>(null);
  const [reopenInfo, setReopenInfo] = useState<string | null>(null);
  const list = periods.data?.periods ?? [];
  const reopen = async (p: BooksPeriod) => {
    const answer = await askToReopenMonth(p.month).catch((e: unknown) => ({ info: e instanceof Error ? e.message : 'Could not ask to reopen' }));
    setReopenInfo(answer.info);
    await queryClient.invalidateQueries({ queryKey: queryKeys.tax.all });
  };
  return (
    <Card withBorder data-testid="books-periods">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            Books periods
          </Title>
          <Group gap="xs">
            <TextInput type="month" aria-label="Month to close" value={month} onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)} data-testid="books-month" />
            <Button variant="light" onClick={() => setClosing(true)} data-testid="books-close">
              Close month…
            </Button>
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          Close a month after filing its VAT return; a second admin confirms with their authenticator code. A closed month&apos;s figures
          never change: a later claim, refund or correction for it is posted in the open month.
        </Text>
        {reopenInfo && (
          <Text size="sm" data-testid="books-info">
            {reopenInfo}
          </Text>
        )}
        <Table.ScrollContainer minWidth={640} type="native" tabIndex={0} role="region" aria-label="Books periods">
          <Table data-testid="books-periods-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Month</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Return reference</Table.Th>
                <Table.Th>Asked by</Table.Th>
                <Table.Th>Closed</Table.Th>
                <Table.Th>Action</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={6}>No month has been closed yet.</Table.Td>
                </Table.Tr>
              )}
              {list.map((p) => (
                <Table.Tr key={p.month} data-testid={`books-period-${p.month}`}>
                  <Table.Td>{monthName(p.month)}</Table.Td>
                  <Table.Td>
                    <Badge color={STATE_LABEL[p.state].color} variant="light">
                      {STATE_LABEL[p.state].label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{p.return_reference}</Table.Td>
                  <Table.Td>
                    {p.asked_by}, {formatDateTime(p.asked_at)}
                  </Table.Td>
                  <Table.Td>{p.closed_at ? `${formatDateTime(p.closed_at)} (${p.closed_by ?? ''}; confirmed by ${p.confirmed_by ?? ''})` : ''}</Table.Td>
                  <Table.Td>
                    {(p.state === 'closing' || p.state === 'reopening') && (
                      <Button size="compact-sm" variant="light" onClick={() => setConfirming(p)} data-testid={`books-confirm-${p.month}`}>
                        Confirm
                      </Button>
                    )}
                    {p.state === 'closed' && (
                      <Button size="compact-sm" variant="subtle" color="orange" onClick={() => void reopen(p)} data-testid={`books-reopen-${p.month}`}>
                        Reopen
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
      <FormModal
        opened={closing}
        onClose={() => setClosing(false)}
        title={`Close ${monthName(month)}`}
        schema={CloseBooksForm}
        defaultValues={{ return_reference: '' }}
        submit={(values) => askToCloseMonth(month, values.return_reference)}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: queryKeys.tax.all })}
        submitLabel="Ask to close"
        data-testid="books-close-modal"
      >
        {({ form, errorOf }) => (
          <TextInput
            label="The filed return's reference (KRA acknowledgement)"
            required
            error={errorOf('return_reference')}
            {...form.register('return_reference')}
            data-testid="books-close-reference"
          />
        )}
      </FormModal>
      <ApproveWithCodeModal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming?.state === 'reopening' ? 'Confirm reopening' : 'Confirm closing'}
        summary={
          confirming &&
          `${confirming.state === 'reopening' ? 'Reopen' : 'Close'} ${monthName(confirming.month)} (return reference ${confirming.return_reference}), asked by ${confirming.asked_by}.`
        }
        approve={(code) => confirmMonth(confirming!.month, code)}
        changes={queryKeys.tax.all}
        submitLabel="Confirm"
        testId="books-confirm-modal"
      />
    </Card>
  );
}
