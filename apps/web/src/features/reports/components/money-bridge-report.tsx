import { Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { exportMoneyBridgeReport } from '@betdesk/contract';
import { formatMoney } from '@/lib/format.ts';
import { downloadFile } from '@/lib/http.ts';
import { useMoneyBridge } from '../api/get-money-bridge.ts';
import { ClosedMonthBanner } from '@/components/closed-month-banner.tsx';

/**
 * Reports → Money bridge (decision 068): the month of the range's end, M-Pesa received = sales
 * invoiced + credit deposits + unclaimed + refunds awaiting M-Pesa + refunded, each line linked to
 * its rows. A payment belongs to the month of its M-Pesa time (the tax point).
 */
export function MoneyBridgeReport({ month }: { month: string }) {
  const bridge = useMoneyBridge(month);
  const data = bridge.data;
  return (
    <Card withBorder data-testid="money-bridge">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            Money bridge, {month}
          </Title>
          <Group gap="xs">
            {data && (
              <Badge color={data.difference === 0 ? 'teal' : 'red'} variant="light" data-testid="money-bridge-difference">
                {data.difference === 0 ? 'Balances to the cent' : `Off by ${formatMoney(data.difference)}`}
              </Badge>
            )}
            <Button
              variant="light"
              size="compact-sm"
              onClick={() => downloadFile(exportMoneyBridgeReport.path, { month }, `money-bridge-${month}.csv`).catch(() => {})}
              data-testid="money-bridge-csv"
            >
              Export CSV
            </Button>
          </Group>
        </Group>
        <ClosedMonthBanner closed={data?.closed} testId="money-bridge-closed" />
        <Table.ScrollContainer minWidth={480} type="native" tabIndex={0} role="region" aria-label="The money bridge">
          <Table data-testid="money-bridge-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Line</Table.Th>
                <Table.Th ta="right">Count</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(data?.lines ?? []).map((l) => (
                <Table.Tr key={`${l.line}-${l.closed_month ?? ''}`} data-testid={`money-bridge-${l.line}`}>
                  <Table.Td pl={l.label.startsWith(' ') ? 'xl' : undefined}>
                    <Anchor component={Link} to={l.link} size="sm">
                      {l.label.trim()}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{l.count.toLocaleString('en-KE')}</Table.Td>
                  <Table.Td ta="right">{formatMoney(l.amount)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="xs" c="dimmed">
          The month of the range&apos;s end. Payments count in the month of their M-Pesa time, as they stand now: a payment made on
          the 30th and confirmed on the 1st is this month&apos;s, and its invoice is listed as invoiced after the period.
        </Text>
      </Stack>
    </Card>
  );
}
