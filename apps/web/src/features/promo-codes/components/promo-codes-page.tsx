import { useState } from 'react';
import { ActionIcon, Button, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconEdit, IconHistory, IconPlayerStop, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { PromoCode, PromoCodeBody } from '@betdesk/contract';
import { confirmTrash } from '@/components/confirm-trash.tsx';
import { actionsColumn, DataTable, StatusBadge, useTableState, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { auditPathFor } from '@/config/paths.ts';
import { showToast } from '@/lib/feedback.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { isHttpError } from '@/lib/http.ts';
import { usePromoCodes, useSavePromoCode } from '../api/promo-codes.ts';
import { PromoCodeFormModal } from './promo-code-form-modal.tsx';

/** Where a code stands now: not started, running, ended (by its end or deactivated), or used up. */
function statusOf(c: PromoCode, now: number): 'scheduled' | 'active' | 'expired' | 'used up' {
  if (c.max_uses !== null && c.uses >= c.max_uses) return 'used up';
  if (Date.parse(c.ends_on) <= now) return 'expired';
  return Date.parse(c.starts_on) > now ? 'scheduled' : 'active';
}

/** The body that ends a code now: its end moves to this minute (a code not yet started starts a minute before). */
function endedNow(c: PromoCode): PromoCodeBody {
  const now = Date.now();
  return {
    code: c.code,
    kind: c.kind,
    percent_off: c.percent_off,
    amount_off: c.amount_off,
    package_ids: c.package_ids,
    starts_on: new Date(Math.min(Date.parse(c.starts_on), now - 60_000)).toISOString(),
    ends_on: new Date(now).toISOString(),
    max_uses: c.max_uses,
    one_per_phone: c.one_per_phone,
    first_purchase_only: c.first_purchase_only,
  };
}

/** /promo-codes (admin): the codes, newest first, paged; create, edit, and deactivate (end now). */
export function PromoCodesPage() {
  const table = useTableState(undefined, { prefix: 'codes' });
  const codes = usePromoCodes(table.query);
  const save = useSavePromoCode();
  const [editing, setEditing] = useState<{ code: PromoCode | null } | null>(null);
  const now = Date.now();

  const deactivate = async (c: PromoCode) => {
    if (!(await confirmTrash({ message: `End ${c.code} now? Punters typing it will be told it has expired.`, confirmLabel: 'End it now' }))) return;
    save.mutate(
      { id: c.id, body: endedNow(c) },
      {
        onSuccess: () => showToast('success', `${c.code} ended`),
        onError: (error) => showToast('error', isHttpError(error) && error.info ? error.info : `${c.code} was not ended.`),
      },
    );
  };

  const columns: DataTableColumn<PromoCode>[] = [
    { key: 'code', header: 'Code', width: 130, render: (c) => <Text fw={600} size="sm">{c.code}</Text> },
    { key: 'off', header: 'Off', width: 100, align: 'right', fit: true, render: (c) => (c.kind === 'percent' ? `${c.percent_off ?? 0} %` : formatMoney(c.amount_off)) },
    { key: 'packages', header: 'Packages', minWidth: 180, render: (c) => c.packages.join(', ') },
    { key: 'starts_on', header: 'Starts', width: WIDTH.dateTime, fit: true, render: (c) => formatDateTime(c.starts_on) },
    { key: 'ends_on', header: 'Ends', width: WIDTH.dateTime, fit: true, render: (c) => formatDateTime(c.ends_on) },
    { key: 'uses', header: 'Uses', width: WIDTH.count, align: 'right', fit: true, render: (c) => `${c.uses.toLocaleString('en-KE')}${c.max_uses === null ? '' : ` / ${c.max_uses.toLocaleString('en-KE')}`}` },
    {
      key: 'rules',
      header: 'Rules',
      width: 150,
      render: (c) => [c.one_per_phone ? 'Once per phone' : '', c.first_purchase_only ? 'First purchase' : ''].filter(Boolean).join('; '),
    },
    { key: 'status', header: 'Status', width: WIDTH.status, fit: true, render: (c) => <StatusBadge status={statusOf(c, now)} data-testid={`promo-status-${c.code}`} /> },
    actionsColumn<PromoCode>(130, (c) => (
      <>
        <Tooltip label="Edit">
          <ActionIcon variant="subtle" aria-label={`Edit ${c.code}`} onClick={() => setEditing({ code: c })}>
            <IconEdit size={18} />
          </ActionIcon>
        </Tooltip>
        {Date.parse(c.ends_on) > now && (
          <Tooltip label="Deactivate">
            <ActionIcon variant="subtle" color="red" aria-label={`Deactivate ${c.code}`} onClick={() => void deactivate(c)}>
              <IconPlayerStop size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label="History">
          <ActionIcon variant="subtle" component={Link} to={auditPathFor('promo_code', c.id)} aria-label={`History of ${c.code}`}>
            <IconHistory size={18} />
          </ActionIcon>
        </Tooltip>
      </>
    )),
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Promo codes</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ code: null })} data-testid="new-promo-code">
          New code
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        A code lowers the price asked on the portal to its package's price less the discount, rounded up to a whole shilling. Uses and income are in
        Reports → Promo codes.
      </Text>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={codes.data?.codes ?? []}
          rowKey={(c) => c.id}
          loading={codes.isFetching}
          paging={table.pagingOf(codes.data)}
          emptyText="No promo code yet"
          data-testid="promo-codes-table"
        />
      </Card>
      <PromoCodeFormModal opened={editing !== null} onClose={() => setEditing(null)} code={editing?.code ?? null} />
    </Stack>
  );
}
