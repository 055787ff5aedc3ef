import { Group, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EnterProfit, enterProfit, type Bet, type BodyOf } from '@betdesk/contract';
import { FormModal, MoneyField } from '@/components/form-modal/index.ts';
import { formatMoney } from '@/lib/format.ts';
import { callEndpoint } from '@/lib/http.ts';

/**
 * The spec's Enter Profit modal (POST /api/bets/update {bet_id, name, stake, profit}), shared by Open
 * Bets and the client's page: closes the bet; a win creates a bonus, so every figure is read again.
 */
export function EnterProfitModal({ bet, onClose }: { bet: Pick<Bet, 'bet_id' | 'name' | 'stake' | 'description'> | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: BodyOf<typeof enterProfit>) => callEndpoint(enterProfit, { body }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
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
          <MoneyField
            form={form}
            errorOf={errorOf}
            name="profit"
            label="Profit (KES)"
            description="Negative for a lost bet (at most the stake)."
            required
            data-testid="bet-profit"
          />
        </>
      )}
    </FormModal>
  );
}
