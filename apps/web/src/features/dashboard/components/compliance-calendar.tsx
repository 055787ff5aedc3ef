import { useState } from 'react';
import { Alert, Badge, Button, Modal, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { COMPLIANCE_REMINDER_DAYS, type ComplianceItem, type ComplianceStatus } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useComplianceCalendar } from '../api/get-compliance-calendar.ts';
import { complianceItemSchema, useUpdateComplianceItem } from '../api/update-compliance-item.ts';

const STATUS_TEXT: Record<ComplianceStatus, string> = { missing: 'Missing', ok: 'In order', due: 'Due soon', overdue: 'Overdue' };
const STATUS_COLOR: Record<ComplianceStatus, string> = { missing: 'orange', ok: 'green', due: 'yellow', overdue: 'red' };

/** One line of the dashboard alert: what is wrong with the item, in words. */
function alertLine(item: ComplianceItem): string {
  if (item.status === 'missing') return `${item.label}: not recorded.`;
  if (item.status === 'overdue') return `${item.label}: ended on ${item.expires_on}. Renew it.`;
  return `${item.label}: ends on ${item.expires_on}. Renew it before then.`;
}

/**
 * The compliance calendar (decision 060): missing, due and overdue items as an alert on the admin
 * dashboard, and a dialog listing every item with an Edit for each (audited by the API).
 */
export function ComplianceCalendar({ enabled }: { enabled: boolean }) {
  const calendar = useComplianceCalendar(enabled);
  const [listOpen, setListOpen] = useState(false);
  const [editing, setEditing] = useState<ComplianceItem | null>(null);
  if (!calendar.data) return null;
  const { items } = calendar.data;
  const due = items.filter((i) => i.status !== 'ok');
  const worst = due.some((i) => i.status === 'overdue') ? 'red' : due.length > 0 ? 'orange' : 'green';
  const edit = (item: ComplianceItem) => {
    setListOpen(false);
    setEditing(item);
  };
  return (
    <>
      <Alert color={worst} title="Compliance calendar" data-testid="compliance-alerts">
        {due.length === 0 ? (
          <Text size="sm">Every item is recorded and in date.</Text>
        ) : (
          due.map((i) => (
            <Text size="sm" key={i.key} data-testid={`compliance-alert-${i.key}`}>
              {alertLine(i)}
            </Text>
          ))
        )}
        <Button variant="light" size="xs" mt="xs" onClick={() => setListOpen(true)} data-testid="compliance-open">
          Open the compliance calendar
        </Button>
      </Alert>
      <Modal opened={listOpen} onClose={() => setListOpen(false)} title="Compliance calendar" size="xl" data-testid="compliance-calendar">
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th>Recorded</Table.Th>
                <Table.Th>Ends</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((i) => (
                <Table.Tr key={i.key} data-testid={`compliance-row-${i.key}`}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {i.label}
                    </Text>
                    {i.updated_at && (
                      <Text size="xs" c="dimmed">
                        By {i.updated_by ?? 'an admin'}, {formatDateTime(i.updated_at)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{i.value ?? '—'}</Text>
                    {i.issued_on && (
                      <Text size="xs" c="dimmed">
                        {i.date_label} {i.issued_on}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{i.expires_on ?? '—'}</Text>
                    {i.remind_from && (
                      <Text size="xs" c="dimmed">
                        Reminder from {i.remind_from}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[i.status]} variant="light">
                      {STATUS_TEXT[i.status]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" onClick={() => edit(i)} aria-label={`Edit ${i.label}`} data-testid={`compliance-edit-${i.key}`}>
                      Edit
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Modal>
      {editing && (
        <ComplianceItemModal
          item={editing}
          onClose={() => {
            setEditing(null);
            setListOpen(true);
          }}
        />
      )}
    </>
  );
}

function ComplianceItemModal({ item, onClose }: { item: ComplianceItem; onClose: () => void }) {
  const update = useUpdateComplianceItem(item.key);
  return (
    <FormModal
      opened
      onClose={onClose}
      title={item.label}
      schema={complianceItemSchema}
      defaultValues={{
        value: item.value ?? '',
        issued_on: item.issued_on ?? '',
        expires_on: item.expiry === 'entered' ? (item.expires_on ?? '') : '',
        note: item.note ?? '',
      }}
      submit={update.mutateAsync}
      data-testid="compliance-item-modal"
    >
      {({ form, errorOf }) => (
        <Stack>
          <Textarea label={item.value_label} required autosize minRows={1} error={errorOf('value')} {...form.register('value')} data-testid="compliance-value" />
          {item.date_label && (
            <TextInput
              label={item.date_label}
              type="date"
              required={item.date_required}
              error={errorOf('issued_on')}
              {...form.register('issued_on')}
              data-testid="compliance-issued-on"
            />
          )}
          {item.expiry === 'entered' && (
            <TextInput label={item.expiry_label} type="date" error={errorOf('expires_on')} {...form.register('expires_on')} data-testid="compliance-expires-on" />
          )}
          {item.expiry === 'computed' && (
            <Text size="sm" c="dimmed">
              {item.expiry_label}: worked out from the date, with a reminder {COMPLIANCE_REMINDER_DAYS} days before.
            </Text>
          )}
          <Textarea label="Note" autosize minRows={1} error={errorOf('note')} {...form.register('note')} data-testid="compliance-note" />
        </Stack>
      )}
    </FormModal>
  );
}
