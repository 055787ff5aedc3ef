import { Alert, Anchor, Button, Drawer, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { canResendSms, confirmTexts, smsStatusTexts, type SmsMessageDetail } from '@betdesk/contract';
import { confirmTrash } from '@/components/confirm-trash.tsx';
import { LoadState } from '@/components/load-state.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useSmsMessage } from '../api/get-sms-message.ts';
import { useResendSms } from '../api/resend-sms.ts';
import { SmsStatusBadge } from '@/components/sms-status-badge.tsx';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text component="div" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children === null || children === '' ? '—' : children}
      </Text>
    </Stack>
  );
}

function MessageLink({ id, onOpen }: { id: number; onOpen: (id: number) => void }) {
  return (
    <Anchor component="button" type="button" onClick={() => onOpen(id)} data-testid={`sms-link-${id}`}>
      #{id}
    </Anchor>
  );
}

/** Sends a failed or unconfirmed message again (admins; never a temporary password), after asking. */
function ResendButton({ message, onOpen }: { message: SmsMessageDetail; onOpen: (id: number) => void }) {
  const resend = useResendSms();
  const resendAfterConfirm = async () => {
    const confirmed = await confirmTrash({
      title: 'Send this SMS again?',
      message: confirmTexts.trash,
      confirmLabel: 'Yes, resend it',
    });
    if (!confirmed) return;
    const answer = await resend.mutateAsync(message.id);
    onOpen(answer.sms.id);
  };
  return (
    <Group>
      <Button color="orange" onClick={() => void resendAfterConfirm().catch(() => {})} loading={resend.isPending} data-testid="sms-resend">
        Resend
      </Button>
      <Text size="xs" c="dimmed">
        Queues a new message with the same text to {message.phone}.
      </Text>
    </Group>
  );
}

function Details({ message, onOpen }: { message: SmsMessageDetail; onOpen: (id: number) => void }) {
  return (
    <Stack data-testid="sms-message-detail">
      <Alert color="gray" variant="light" title={message.name ?? message.phone}>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{message.message}</Text>
      </Alert>
      {message.status === 'unconfirmed' && (
        <Alert color="orange" variant="light">
          {smsStatusTexts.unconfirmed}.
        </Alert>
      )}
      {message.resent_from_id !== null && (
        <Text size="sm" data-testid="sms-resent-from">
          Sent again from message <MessageLink id={message.resent_from_id} onOpen={onOpen} />.
        </Text>
      )}
      {message.resent_as_ids.length > 0 && (
        <Text size="sm" data-testid="sms-resent-as">
          Sent again as message{message.resent_as_ids.length > 1 ? 's' : ''}{' '}
          {message.resent_as_ids.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <MessageLink id={id} onOpen={onOpen} />
            </span>
          ))}
          .
        </Text>
      )}
      {canResendSms(message) && <ResendButton message={message} onOpen={onOpen} />}
      <SimpleGrid cols={2}>
        <Fact label="Status">
          <SmsStatusBadge status={message.status} />
        </Fact>
        <Fact label="Phone">{message.phone}</Fact>
        <Fact label="Why">{message.intent}</Fact>
        <Fact label="Queued by">{message.created_by ?? 'The system'}</Fact>
        <Fact label="Parts">{message.parts}</Fact>
        <Fact label="Cost">{message.cost === null ? null : formatMoney(message.cost)}</Fact>
        <Fact label="Queued on">{formatDateTime(message.queued_on)}</Fact>
        <Fact label="Sent on">{formatDateTime(message.sent_on)}</Fact>
        <Fact label="Delivered on">{formatDateTime(message.delivered_on)}</Fact>
        <Fact label="Attempts">{message.attempts}</Fact>
        <Fact label="Next attempt">{formatDateTime(message.next_attempt_on)}</Fact>
        <Fact label="Last change">{formatDateTime(message.updated_on)}</Fact>
        <Fact label="Gateway message id">{message.provider_message_id}</Fact>
        <Fact label="Gateway status">{message.provider_status}</Fact>
        <Fact label="Network code">{message.network_code}</Fact>
        <Fact label="Failure reason">{message.failure_reason}</Fact>
      </SimpleGrid>
      <Fact label="Last error">{message.last_error}</Fact>
    </Stack>
  );
}

/** Everything known about one message, beside the log. */
export function SmsMessageDrawer({
  messageId,
  onClose,
  onOpen,
}: {
  messageId: number | null;
  onClose: () => void;
  /** Shows another message (a resend, or the message it sends again). */
  onOpen: (id: number) => void;
}) {
  const message = useSmsMessage(messageId);
  // On a phone the drawer takes the whole width instead of overflowing it.
  const phone = useMediaQuery('(max-width: 40em)', false, { getInitialValueInEffect: false }) ?? false;
  return (
    <Drawer opened={messageId !== null} onClose={onClose} position="right" size={phone ? '100%' : 'lg'} title="SMS details">
      {message.data ? (
        <Details message={message.data.message} onOpen={onOpen} />
      ) : (
        <LoadState failed={message.isError} what="message" />
      )}
    </Drawer>
  );
}
