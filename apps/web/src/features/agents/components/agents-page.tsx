import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { localPhone, nairobiDayOf, type Agent } from '@betdesk/contract';
import { actionsColumn, DataTable, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDate, formatMoney } from '@/lib/format.ts';
import { useAgents } from '../api/agents.ts';
import { AgentFormModal } from './agent-form-modal.tsx';
import { AgentPayouts } from './agent-payouts.tsx';
import { AgentStatement } from './agent-statement.tsx';

/** An agent's phone as the lists show phones; an erased agent's is gone. */
const phoneOf = (a: Agent) => (a.phone.startsWith('erased') ? <Badge color="gray">Erased</Badge> : localPhone(a.phone));

/**
 * /agents (admin): register an agent, the agents newest first with this month's commission, an agent's
 * statement by month, and the monthly payouts (ask a closed month's, approve another admin's).
 */
export function AgentsPage() {
  const table = useTableState(undefined, { prefix: 'agents' });
  const agents = useAgents(table.query);
  const [registering, setRegistering] = useState(false);
  const [params, setParams] = useSearchParams();
  const chosen = Number(params.get('agent')) || null;
  const month = params.get('month') ?? nairobiDayOf(new Date()).slice(0, 7);
  const choose = (agentId: number, m: string) =>
    setParams(
      (p) => {
        p.set('agent', String(agentId));
        p.set('month', m);
        return p;
      },
      { replace: true },
    );

  const columns: DataTableColumn<Agent>[] = [
    { key: 'name', header: 'Name', minWidth: 160, render: (a) => <Text fw={600} size="sm">{a.name}</Text> },
    { key: 'phone', header: 'Phone', width: WIDTH.phone, fit: true, render: phoneOf },
    { key: 'referral_code', header: 'Referral code', width: 120, fit: true },
    { key: 'referrals', header: 'Referrals', width: WIDTH.count, align: 'right', fit: true, render: (a) => a.referrals.toLocaleString('en-KE') },
    { key: 'month_commission', header: 'This month', width: 130, align: 'right', fit: true, render: (a) => formatMoney(a.month_commission) },
    { key: 'created_on', header: 'Registered', width: WIDTH.date, fit: true, render: (a) => formatDate(a.created_on) },
    actionsColumn<Agent>(WIDTH.action, (a) => (
      <Button size="xs" variant="light" onClick={() => choose(a.id, month)} aria-label={`Statement of ${a.name}`} data-testid={`agent-statement-${a.id}`}>
        Statement
      </Button>
    )),
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Agents</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setRegistering(true)} data-testid="new-agent">
          Register agent
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        An agent earns a commission on every payment of the people who first bought with their referral code, for some months after that first purchase.
        This month: their commission of this month so far, less clawbacks. Per agent over any range: Reports → Promo codes.
      </Text>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={agents.data?.agents ?? []}
          rowKey={(a) => a.id}
          loading={agents.isFetching}
          paging={table.pagingOf(agents.data)}
          emptyText="No agent yet"
          data-testid="agents-table"
        />
      </Card>
      {chosen !== null && <AgentStatement agentId={chosen} month={month} onMonth={(m) => choose(chosen, m)} />}
      <AgentPayouts />
      <AgentFormModal opened={registering} onClose={() => setRegistering(false)} />
    </Stack>
  );
}
