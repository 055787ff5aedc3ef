/**
 * The "Tax identity" card of a client's or subscriber's page (decision 074): the buyer's KRA PIN and
 * registered name with KRA's check, an edit form, and the buyer's invoices with their PDFs; an admin
 * reissues an invoice sent without the PIN.
 * Lives in: apps/web/src/components/tax-identity (shared by the client and subscriber pages).
 */
import { useState } from 'react';
import { Badge, Button, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { can, type BuyerInvoice } from '@betdesk/contract';
import { DataTable, StatusBadge, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { useRole } from '@/lib/auth.ts';
import { showToast } from '@/lib/feedback.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { downloadInvoiceDocument, useReissueInvoice, useSaveTaxIdentity, useTaxIdentity, type TaxBuyer } from './api.ts';
import { SendInvoiceLinkButton } from './send-invoice-link-button.tsx';

export function TaxIdentityCard({ buyer }: { buyer: TaxBuyer }) {
  const { data } = useTaxIdentity(buyer);
  const save = useSaveTaxIdentity(buyer);
  const reissue = useReissueInvoice(buyer);
  const mayReissue = can(useRole(), 'manage:tax');
  const [editing, setEditing] = useState(false);
  const [pin, setPin] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ pin?: string; name?: string }>({});
  if (!data) return null;
  const identity = data.identity;
  const open = () => {
    setPin(identity?.pin ?? '');
    setName(identity?.name ?? '');
    setErrors({});
    setEditing(true);
  };
  const submit = () =>
    save.mutate(
      { pin, name },
      {
        onSuccess: (r) => {
          showToast('success', r.info);
          setEditing(false);
        },
        onError: (error) => {
          const fields = (error as { errors?: Record<string, string[]> }).errors ?? {};
          setErrors({ pin: fields.pin?.[0], name: fields.name?.[0] });
        },
      },
    );
  const columns: DataTableColumn<BuyerInvoice>[] = [
    { key: 'number', header: 'Number', render: (i) => `${i.kind === 'invoice' ? 'Invoice' : 'Credit note'} ${i.number}`, card: 'title' },
    { key: 'time', header: 'Date', render: (i) => formatDateTime(i.time), width: WIDTH.date, fit: true },
    { key: 'amount', header: 'Amount', render: (i) => formatMoney(i.amount), fit: true },
    { key: 'status', header: 'KRA', render: (i) => <StatusBadge status={i.status} />, width: WIDTH.status, fit: true },
    { key: 'buyer_pin', header: 'Buyer PIN', render: (i) => i.buyer_pin ?? '', fit: true },
    {
      key: 'actions',
      header: 'Actions',
      render: (i) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" data-testid={`invoice-pdf-${i.id}`} onClick={() => void downloadInvoiceDocument(i.id, i.number)}>
            PDF
          </Button>
          <Button size="xs" variant="subtle" onClick={() => void downloadInvoiceDocument(i.id, i.number, 'receipt')}>
            Receipt
          </Button>
          <SendInvoiceLinkButton id={i.id} number={i.number} testId={`invoice-sms-link-${i.id}`} />
          {mayReissue && identity && i.kind === 'invoice' && !i.buyer_pin && i.reissued_as === null ? (
            <Button
              size="xs"
              variant="light"
              color="orange"
              loading={reissue.isPending}
              data-testid={`reissue-${i.id}`}
              onClick={() => reissue.mutate(i.id, { onSuccess: (r) => showToast('success', r.info) })}
            >
              Reissue with PIN
            </Button>
          ) : null}
        </Group>
      ),
      fit: true,
    },
  ];
  return (
    <Card withBorder data-testid="tax-identity">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Tax identity
        </Title>
        {!editing ? (
          <Button size="xs" variant="light" onClick={open} data-testid="edit-tax-identity">
            {identity ? 'Edit' : 'Add KRA PIN'}
          </Button>
        ) : null}
      </Group>
      {editing ? (
        <Group align="flex-end" mb="sm">
          <TextInput label="KRA PIN" description="A or P, nine digits, a letter" value={pin} onChange={(e) => setPin(e.currentTarget.value)} error={errors.pin} data-testid="tax-pin" />
          <TextInput label="Registered name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} data-testid="tax-name" />
          <Button onClick={submit} loading={save.isPending} data-testid="save-tax-identity">
            Save
          </Button>
          <Button variant="subtle" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </Group>
      ) : identity ? (
        <Group mb="sm">
          <Text data-testid="tax-identity-pin">
            {identity.pin} · {identity.name}
          </Text>
          <Badge color={identity.verification === 'verified' ? 'green' : 'gray'} variant="light">
            {identity.verification === 'verified' ? `Checked with KRA${identity.verified_name ? `: ${identity.verified_name}` : ''}` : 'Not checked with KRA'}
          </Badge>
        </Group>
      ) : (
        <Text c="dimmed" mb="sm">
          No KRA PIN recorded: invoices go to KRA without a buyer PIN.
        </Text>
      )}
      {data.invoices.length > 0 ? <DataTable columns={columns} rows={data.invoices} rowKey={(i) => i.id} label="Tax invoices" /> : null}
    </Card>
  );
}
