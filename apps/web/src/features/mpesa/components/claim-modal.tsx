import { useEffect, useId, useRef, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { localPhone, type ClaimCandidate, type MpesaTransaction } from '@betdesk/contract';
import { formatMoney } from '@/lib/format.ts';
import { useClaimCandidates } from '../api/get-claim-candidates.ts';
import { useClaimPayment } from '../api/claim-payment.ts';
import { useClaimPreview } from '../api/get-claim-preview.ts';

interface ClaimModalProps {
  transaction: MpesaTransaction | null;
  onClose: () => void;
}

const KIND_LABEL = { client: 'Bet4Me client', subscriber: 'Tips subscriber' } as const;

/**
 * Claim a payment to a client or tips subscriber. Opens with suggestions (masked number, sender
 * name); a search on Enter finds people by name, phone or another payment's receipt. Choosing
 * someone asks first, naming who, how much and what the payment will buy: a suggestion is only a
 * guess, and a claim moves money.
 */
export function ClaimModal({ transaction, onClose }: ClaimModalProps) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<ClaimCandidate | null>(null);
  const candidates = useClaimCandidates(transaction?.id ?? null, search);
  const claim = useClaimPayment();

  const close = () => {
    setTyped('');
    setSearch('');
    setChosen(null);
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
    <Modal
      opened={transaction !== null}
      onClose={close}
      title={chosen ? 'Claim this payment?' : 'Claim payment'}
      size="lg"
      centered
      data-testid="claim-modal"
    >
      {transaction && chosen && (
        <ClaimConfirm
          transaction={transaction}
          candidate={chosen}
          claiming={claim.isPending}
          error={claim.error?.message ?? null}
          onBack={() => {
            claim.reset();
            setChosen(null);
          }}
          onConfirm={() => void claimTo(chosen).catch(() => {})}
        />
      )}
      {transaction && !chosen && (
        <Stack gap="sm">
          <Text size="sm">
            <b>{transaction.transaction_reference}</b>: {formatMoney(transaction.amount ?? 0)} from{' '}
            {transaction.sender_name ?? 'an unnamed sender'}
            {transaction.account_number ? `, account "${transaction.account_number}"` : ''}.
          </Text>
          <TextInput
            aria-label="Find a client or subscriber"
            placeholder="Client or subscriber: name, phone or receipt, then Enter"
            leftSection={<IconSearch size={16} />}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') setSearch(typed.trim());
            }}
            data-autofocus
            // Back from the question: the pressed Claim button is gone, the search box takes the keyboard.
            autoFocus
            data-testid="claim-search"
          />
          {!search && found.length > 0 && <Text size="xs" c="dimmed">Suggestions from the sender's number and name:</Text>}
          <Stack gap={6}>
            {found.map((c) => (
              <Paper key={`${c.kind}-${c.id}`} withBorder p="xs" data-testid="claim-candidate">
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <Stack gap={2} style={{ minWidth: 0, flex: '1 1 12rem' }}>
                    <Group gap="xs" wrap="wrap">
                      <Badge variant="light" color={c.kind === 'client' ? 'blue' : 'grape'}>
                        {KIND_LABEL[c.kind]}
                      </Badge>
                      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {c.name}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {localPhone(c.phone)}
                      {c.suggested ? ` · ${c.suggested}` : ''}
                    </Text>
                  </Stack>
                  <Button size="xs" onClick={() => setChosen(c)} aria-label={`Claim to ${c.name}`}>
                    Claim
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
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

interface ClaimConfirmProps {
  transaction: MpesaTransaction;
  candidate: ClaimCandidate;
  claiming: boolean;
  error: string | null;
  onBack: () => void;
  onConfirm: () => void;
}

/** The question before a claim: who gets the money, how much, and what it will buy for them. */
function ClaimConfirm({ transaction, candidate, claiming, error, onBack, onConfirm }: ClaimConfirmProps) {
  const preview = useClaimPreview(transaction.id, candidate);
  // The "Claim to …" button that was pressed is gone: keep the keyboard in the dialog, on the
  // question (a group named by it, so it is read out first), one Tab from Back and "Yes, claim it"
  // (decision 033).
  const questionId = useId();
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => confirmation.current?.focus(), []);
  return (
    <Stack gap="sm" ref={confirmation} tabIndex={-1} role="group" aria-labelledby={questionId} data-testid="claim-confirm">
      <Text size="sm" id={questionId} data-testid="claim-question">
        Claim <b>{formatMoney(transaction.amount ?? 0)}</b> (ref {transaction.transaction_reference}) from{' '}
        {transaction.sender_name ?? 'an unnamed sender'} to <b>{candidate.name}</b> ({KIND_LABEL[candidate.kind]},{' '}
        {localPhone(candidate.phone)})?
      </Text>
      {candidate.suggested && (
        <Alert color="yellow" p="xs">
          <Text size="sm">Only a suggestion: {candidate.suggested.toLowerCase()}. Check it is the same person.</Text>
        </Alert>
      )}
      <div data-testid="claim-buys">
        <Text size="sm" fw={600}>
          It will:
        </Text>
        {preview.isPending ? (
          <Loader size="xs" role="status" aria-label="Working out what it buys" />
        ) : preview.data ? (
          <Stack gap={2} component="ul" m={0} pl="md">
            {preview.data.buys.map((line) => (
              <Text key={line} size="sm" component="li">
                {line}
              </Text>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            What it buys is decided by the payment rules once claimed.
          </Text>
        )}
      </div>
      {error && <Alert color="red">{error}</Alert>}
      <Group justify="flex-end" gap="xs" wrap="wrap">
        <Button variant="default" onClick={onBack} disabled={claiming}>
          Back
        </Button>
        <Button onClick={onConfirm} loading={claiming} data-testid="confirm-claim">
          Yes, claim it
        </Button>
      </Group>
    </Stack>
  );
}
