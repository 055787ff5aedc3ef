import { useState } from 'react';
import { Button, Card, Group, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { EnterProfit, type Bet } from '@betdesk/contract';
import { DataTable } from '@/components/data-table/index.ts';
import { FigureBoxes } from '@/components/figure-boxes.tsx';
import { FormModal, numberFieldProps } from '@/components/form-modal/index.ts';
import { formatMoney } from '@/lib/format.ts';
import { useEnterProfit } from '../api/enter-profit.ts';
import { useOpenBets } from '../api/get-open-bets.ts';
import { betColumns } from './bet-columns.tsx';

/** /bets/open: open bets, each with an Enter Profit button; admins see the totals. */
export function OpenBetsPage() {
  const bets = useOpenBets();
  const [closing, setClosing] = useState<Bet | null>(null);
  const data = bets.data;
  return (
    <Stack>
      <Title order={2}>Open Bets</Title>
      {data?.total_open_bets !== undefined && (
        <FigureBoxes
          figures={[
            { label: 'Open bets', value: data.total_open_bets.toLocaleString('en-KE'), testId: 'total-open-bets' },
            { label: 'Closed bets', value: (data.total_closed_bets ?? 0).toLocaleString('en-KE') },
          ]}
        />
      )}
      <Card withBorder>
        <DataTable
          columns={[
            ...betColumns.filter((c) => c.key !== 'profit' && c.key !== 'bonus' && c.key !== 'status'),
            {
              key: 'enter-profit',
              header: '',
              width: 130,
              render: (b) => (
                <Button size="xs" onClick={() => setClosing(b)} data-testid="enter-profit">
                  Enter Profit
                </Button>
              ),
            },
          ]}
          rows={data?.bets ?? []}
          rowKey={(b) => b.bet_id}
          loading={bets.isFetching}
          emptyText="No open bets."
          exportCsv={{ path: '/api/bets/open/export', filename: 'open-bets.csv' }}
          data-testid="open-bets-table"
        />
      </Card>
      <EnterProfitModal bet={closing} onClose={() => setClosing(null)} />
    </Stack>
  );
}

function EnterProfitModal({ bet, onClose }: { bet: Bet | null; onClose: () => void }) {
  const save = useEnterProfit();
  return (
    <FormModal
      opened={bet !== null}
      onClose={onClose}
      title="Enter Profit"
      schema={EnterProfit}
      defaultValues={{ bet_id: bet?.bet_id ?? 0, name: bet?.name ?? '', stake: bet?.stake, profit: '' }}
      submit={save.mutateAsync}
      submitLabel="Save profit"
      data-testid="enter-profit-modal"
    >
      {({ form, errorOf }) => (
        <>
          <TextInput label="Client" readOnly value={bet?.name ?? ''} />
          <Group grow>
            <TextInput label="Stake" readOnly value={formatMoney(bet?.stake)} />
          </Group>
          <Text size="sm" c="dimmed">
            {bet?.description}
          </Text>
          <NumberInput
            label="Profit (KES)"
            description="Negative for a lost bet (at most the stake)."
            required
            decimalScale={2}
            thousandSeparator=","
            error={errorOf('profit')}
            {...numberFieldProps(form, 'profit')}
            data-testid="bet-profit"
          />
        </>
      )}
    </FormModal>
  );
}
