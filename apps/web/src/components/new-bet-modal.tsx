import { Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NewBet, openBet, type BodyOf } from '@betdesk/contract';
import { FormModal, MoneyField } from '@/components/form-modal/index.ts';
import { callEndpoint } from '@/lib/http.ts';

export interface NewBetClient {
  id: number;
  name: string;
}

/**
 * The spec's New Bet modal (client name read-only, stake, bet description), shared by the
 * dashboard and the active-clients screen. A saved bet refreshes every Bet4Me figure.
 */
export function NewBetModal({ client, onClose }: { client: NewBetClient | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: BodyOf<typeof openBet>) => callEndpoint(openBet, { body }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  return (
    <FormModal
      opened={client !== null}
      onClose={onClose}
      title="New Bet"
      schema={NewBet}
      defaultValues={{ client_id: client?.id ?? 0, name: client?.name ?? '', stake: '', description: '' }}
      submit={save.mutateAsync}
      submitLabel="Open bet"
      data-testid="new-bet-modal"
    >
      {({ form, errorOf }) => (
        <>
          <TextInput label="Client" readOnly value={client?.name ?? ''} />
          <MoneyField form={form} errorOf={errorOf} name="stake" label="Stake (KES)" required min={0} data-testid="bet-stake" />
          <Textarea
            label="Bet description"
            required
            autosize
            minRows={2}
            error={errorOf('description')}
            {...form.register('description')}
            data-testid="bet-description"
          />
        </>
      )}
    </FormModal>
  );
}
