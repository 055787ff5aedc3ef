import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { localPhone, type ClaimCandidate, type MpesaTransaction } from '@betdesk/contract';
import { formatMoney } from '@/lib/format.ts';
import { useClaimCandidates } from '../api/get-claim-candidates.ts';
import { useClaimPayment } from '../api/claim-payment.ts';

interface ClaimModalProps {
  transaction: MpesaTransaction | null;
  onClose: () => void;
}

/**
 * Claim a payment to a client or tips subscriber. Opens with suggestions (masked number, sender
 * name); a search on Enter finds people by name, phone or another payment's receipt.
 */
export function ClaimModal({ transaction, onClose }: ClaimModalProps) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const candidates = useClaimCandidates(transaction?.id ?? null, search);
  const claim = useClaimPayment();

  const close = () => {
    setTyped('');
    setSearch('');
    claim.reset();
    onClose();
  };
  const claimTo = async (c: ClaimCandidate) => {
    if (!transaction) return;
    await claim.mutateAsync({
      transaction_id: transaction.id,
      ...(c.kind === 'client' ? { client_id: c.id } : { subscriber_id: c.id }),
    });
    close();
  };
  const found = candidates.data?.candidates ?? [];

  return (
    <Modal opened={transaction !== null} onClose={close} title="Claim payment" size="lg" centered data-testid="claim-modal">
      {transaction && (
        <Stack gap="sm">
          <Text size="sm">
            <b>{transaction.transaction_reference}</b>: {formatMoney(transaction.amount ?? 0)} from{' '}
            {transaction.sender_name ?? 'an unnamed sender'}
            {transaction.account_number ? `, account "${transaction.account_number}"` : ''}. What it buys is decided by
            the payment rules once claimed.
          </Text>
          <TextInput
            placeholder="Client or subscriber: name, phone or receipt, then Enter"
            leftSection={<IconSearch size={16} />}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') setSearch(typed.trim());
            }}
            data-testid="claim-search"
          />
          {!search && found.length > 0 && <Text size="xs" c="dimmed">Suggestions from the sender's number and name:</Text>}
          {claim.error && <Alert color="red">{claim.error.message}</Alert>}
          <Table striped highlightOnHover>
            <Table.Tbody>
              {found.map((c) => (
                <Table.Tr key={`${c.kind}-${c.id}`} data-testid="claim-candidate">
                  <Table.Td>
                    <Badge variant="light" color={c.kind === 'client' ? 'blue' : 'grape'}>
                      {c.kind === 'client' ? 'Bet4Me client' : 'Tips subscriber'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>{localPhone(c.phone)}</Table.Td>
                  <Table.Td>{c.suggested && <Text size="xs" c="dimmed">{c.suggested}</Text>}</Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      <Button size="xs" loading={claim.isPending} onClick={() => void claimTo(c)}>
                        Claim
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {!candidates.isFetching && found.length === 0 && (
            <Text size="sm" c="dimmed">
              {search ? 'Nobody found. Try a name, a phone like 0712345678 or a receipt.' : 'No suggestions: search above.'}
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}
