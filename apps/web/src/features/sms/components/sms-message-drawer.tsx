import { Alert, Drawer, SimpleGrid, Stack, Text } from '@mantine/core';
import { smsStatusTexts, type SmsMessageDetail } from '@betdesk/contract';
import { LoadState } from '@/components/load-state.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { useSmsMessage } from '../api/get-sms-message.ts';
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

function Details({ message }: { message: SmsMessageDetail }) {
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
export function SmsMessageDrawer({ messageId, onClose }: { messageId: number | null; onClose: () => void }) {
  const message = useSmsMessage(messageId);
  return (
    <Drawer opened={messageId !== null} onClose={onClose} position="right" size="lg" title="SMS details">
      {message.data ? <Details message={message.data.message} /> : <LoadState failed={message.isError} what="message" />}
    </Drawer>
  );
}
