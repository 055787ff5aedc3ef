import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconDeviceMobileDollar } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  paymentRequestOptions,
  requestPayment,
  showPaymentRequest,
  type PaymentRequest,
} from '@betdesk/contract';
import { callEndpoint, isHttpError } from '@/lib/http.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export type Payer = { clientId: number } | { subscriberId: number };

const statusColors: Record<PaymentRequest['status'], string> = {
  pending: 'yellow',
  paid: 'green',
  cancelled: 'gray',
  failed: 'red',
};

const payerQuery = (payer: Payer) =>
  'clientId' in payer ? { client_id: payer.clientId } : { subscriber_id: payer.subscriberId };

/** How a request stands; polled every few seconds while M-Pesa has not answered. */
function RequestStatus({ request }: { request: PaymentRequest }) {
  const queryClient = useQueryClient();
  const shown = useQuery({
    queryKey: queryKeys.paymentRequests.request(request.id),
    queryFn: async () => {
      const answer = await callEndpoint(showPaymentRequest, { query: { request_id: request.id } });
      // Once paid, the subscription and balance shown around the button have changed.
      if (answer.request.status === 'paid') void queryClient.invalidateQueries();
      return answer.request;
    },
    initialData: request,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 3000 : false),
  });
  const current = shown.data;
  return (
    <Alert color={statusColors[current.status]} data-testid="payment-request-status">
      <Group gap="xs">
        {current.status === 'pending' && <Loader size="xs" />}
        <Badge color={statusColors[current.status]}>{current.status}</Badge>
        <Text size="sm">
          {current.item}, {formatMoney(current.amount)} to {current.phone}
          {current.status === 'pending' && ': waiting for the payer to enter their M-Pesa PIN.'}
          {current.transaction_reference && ` (receipt ${current.transaction_reference})`}
          {current.status !== 'pending' && current.status !== 'paid' && current.result_desc && `: ${current.result_desc}`}
        </Text>
      </Group>
    </Alert>
  );
}

/**
 * "Request payment": sends an M-Pesa STK push to the payer's phone for a tips package, a Bet4Me
 * plan or the pending bonus, then shows the request until M-Pesa says how it ended.
 */
export function RequestPaymentButton({ payer }: { payer: Payer }) {
  const [opened, setOpened] = useState(false);
  const [item, setItem] = useState('');
  const [phone, setPhone] = useState<string | null>(null);
  const [sent, setSent] = useState<PaymentRequest | null>(null);
  const options = useQuery({
    queryKey: queryKeys.paymentRequests.options(payerQuery(payer)),
    queryFn: () => callEndpoint(paymentRequestOptions, { query: payerQuery(payer) }),
    enabled: opened,
  });
  const send = useMutation({
    mutationFn: () => callEndpoint(requestPayment, { body: { ...payerQuery(payer), item, phone: phone ?? options.data?.phone ?? '' } }),
    onSuccess: (answer) => setSent(answer.request),
  });
  const close = () => {
    setOpened(false);
    setItem('');
    setPhone(null);
    setSent(null);
    send.reset();
  };
  const items = options.data?.items ?? [];
  const errors = isHttpError(send.error) ? (send.error.errors ?? undefined) : undefined;

  return (
    <>
      <Button leftSection={<IconDeviceMobileDollar size={16} />} variant="light" onClick={() => setOpened(true)} data-testid="request-payment">
        Request payment
      </Button>
      <Modal opened={opened} onClose={close} title="Request payment by M-Pesa" centered data-testid="request-payment-modal">
        {options.isLoading ? (
          <Loader />
        ) : (
          <Stack gap="sm">
            {options.data && !options.data.configured && (
              <Alert color="yellow">M-Pesa is not configured on this server, so no request can be sent.</Alert>
            )}
            {sent ? (
              <RequestStatus request={sent} />
            ) : (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  send.mutate();
                }}
              >
                <Stack gap="sm">
                  <Text size="sm">
                    {options.data?.name} gets a prompt on their phone to pay; what they pay for starts once M-Pesa confirms.
                  </Text>
                  <NativeSelect
                    label="Pay for"
                    data={[{ value: '', label: items.length ? 'Choose…' : 'Nothing to pay for' }, ...items.map((i) => ({ value: i.key, label: `${i.label}: ${formatMoney(i.amount)}` }))]}
                    value={item}
                    onChange={(e) => setItem(e.currentTarget.value)}
                    error={errors?.item?.join(' ')}
                    data-testid="request-payment-item"
                  />
                  <TextInput
                    label="Phone"
                    placeholder="07XXXXXXXX"
                    value={phone ?? options.data?.phone ?? ''}
                    onChange={(e) => setPhone(e.currentTarget.value)}
                    error={errors?.phone?.join(' ')}
                  />
                  {send.error && !errors && <Alert color="red">{send.error.message}</Alert>}
                  <Group justify="flex-end">
                    <Button type="submit" loading={send.isPending} disabled={!item || options.data?.configured === false}>
                      Send request
                    </Button>
                  </Group>
                </Stack>
              </form>
            )}
            {(options.data?.requests.length ?? 0) > 0 && !sent && (
              <Stack gap={4}>
                <Text size="xs" c="dimmed">Recent requests</Text>
                {options.data!.requests.map((r) => (
                  <Text key={r.id} size="xs">
                    <Badge size="xs" color={statusColors[r.status]}>{r.status}</Badge> {r.item}, {formatMoney(r.amount)},{' '}
                    {formatDateTime(r.requested_on)}
                  </Text>
                ))}
              </Stack>
            )}
          </Stack>
        )}
      </Modal>
    </>
  );
}
