import { Stack, TextInput } from '@mantine/core';
import { AgentBody } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { useCreateAgent } from '../api/agents.ts';

/** Registers an agent: name and phone (one agent per phone); the server's 422 lands under the field it names. */
export function AgentFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateAgent();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Register an agent"
      schema={AgentBody}
      defaultValues={{ name: '', phone: '' }}
      submit={(body) => create.mutateAsync(body)}
      submitLabel="Register"
      data-testid="agent-modal"
    >
      {({ form, errorOf }) => (
        <Stack gap="sm">
          <TextInput label="Name" required autoComplete="off" error={errorOf('name')} {...form.register('name')} data-testid="agent-name" />
          <TextInput
            label="Phone"
            description="The agent's M-Pesa number, like 0712345678"
            required
            inputMode="tel"
            autoComplete="off"
            error={errorOf('phone')}
            {...form.register('phone')}
            data-testid="agent-phone"
          />
        </Stack>
      )}
    </FormModal>
  );
}
