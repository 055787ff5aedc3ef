import { ActionIcon, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray } from 'react-hook-form';
import { ClientForm, localPhone, type Client, type PlatformPassword } from '@betdesk/contract';
import { FormModal, MoneyField } from '@/components/form-modal/index.ts';
import { useStoreClient } from '../api/store-client.ts';

interface ClientFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** Null: New client. Otherwise the client edited, with their current platform passwords. */
  client: { client: Client; passwords: PlatformPassword[] } | null;
}

/** The admin's New client / Edit client form (beyond the spec: clients have to get in somehow). */
export function ClientFormModal({ opened, onClose, client }: ClientFormModalProps) {
  const save = useStoreClient();
  const current = client?.client;
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={current ? 'Edit client' : 'New client'}
      schema={ClientForm}
      defaultValues={{
        client_id: current?.id ?? null,
        name: current?.name ?? '',
        phone: current ? localPhone(current.phone) : '',
        email: current?.email ?? '',
        maximum_stake: current?.maximum_stake ?? '',
        passwords: client?.passwords.map((p) => ({ platform: p.platform, password: p.password })) ?? [],
      }}
      submit={save.mutateAsync}
      data-testid="client-form-modal"
    >
      {({ form, errorOf }) => <ClientFields form={form} errorOf={errorOf} />}
    </FormModal>
  );
}

type FormProps = Parameters<Parameters<typeof FormModal<typeof ClientForm, unknown>>[0]['children']>[0];

function ClientFields({ form, errorOf }: FormProps) {
  const passwords = useFieldArray({ control: form.control, name: 'passwords' });
  return (
    <>
      <TextInput label="Name" required error={errorOf('name')} {...form.register('name')} data-testid="client-name" />
      <TextInput label="Phone" placeholder="07XXXXXXXX" required error={errorOf('phone')} {...form.register('phone')} data-testid="client-phone" />
      <TextInput label="Email" type="email" error={errorOf('email')} {...form.register('email')} />
      <MoneyField form={form} errorOf={errorOf} name="maximum_stake" label="Maximum stake (KES)" description="Leave empty for no limit." min={0} />
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            Betting platform passwords
          </Text>
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => passwords.append({ platform: '', password: '' })}>
            Add platform
          </Button>
        </Group>
        {passwords.fields.map((field, index) => (
          <Group key={field.id} align="flex-start" wrap="nowrap">
            <TextInput
              placeholder="Platform, e.g. SportPesa"
              aria-label="Platform"
              error={errorOf(`passwords.${index}.platform`)}
              {...form.register(`passwords.${index}.platform`)}
              style={{ flex: 1 }}
            />
            <PasswordInput
              placeholder="Password"
              aria-label="Password"
              error={errorOf(`passwords.${index}.password`)}
              {...form.register(`passwords.${index}.password`)}
              style={{ flex: 1 }}
            />
            <ActionIcon variant="subtle" color="red" aria-label="Remove platform" onClick={() => passwords.remove(index)} mt={6}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        {errorOf('passwords') && (
          <Text size="xs" c="red">
            {errorOf('passwords')}
          </Text>
        )}
      </Stack>
    </>
  );
}
