import { useState } from 'react';
import { Badge, Button, Modal, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { COMPLIANCE_REMINDER_DAYS, type ComplianceItem, type ComplianceStatus } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { formatDateTime } from '@/lib/format.ts';
import { complianceItemSchema, useUpdateComplianceItem } from '../api/update-compliance-item.ts';

/**
 * The compliance calendar's dialog (decision 060): every item with an Edit for each (audited by the
 * API). Its own chunk, fetched on the first "Open the compliance calendar": the table, the form and its
 * schema are not part of the admin dashboard's first load (apps/web/build/route-sizes.ts).
 * Lives in: the admin dashboard's alerts (compliance-calendar.tsx opens it).
 */

const STATUS_TEXT: Record<ComplianceStatus, string> = { missing: 'Missing', ok: 'In order', due: 'Due soon', overdue: 'Overdue' };
const STATUS_COLOR: Record<ComplianceStatus, string> = { missing: 'orange', ok: 'green', due: 'yellow', overdue: 'red' };

export default function ComplianceCalendarDialog({ items, onClose }: { items: ComplianceItem[]; onClose: () => void }) {
  const [listOpen, setListOpen] = useState(true);
  const [editing, setEditing] = useState<ComplianceItem | null>(null);
  const edit = (item: ComplianceItem) => {
    setListOpen(false);
    setEditing(item);
  };
  return (
    <>
      <Modal opened={listOpen} onClose={onClose} title="Compliance calendar" size="xl" data-testid="compliance-calendar">
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
