import { Badge, Tooltip } from '@mantine/core';
import { smsStatusTexts, type SmsStatus } from '@betdesk/contract';

export const statusColors: Record<SmsStatus, string> = {
  queued: 'gray',
  sending: 'blue',
  sent: 'cyan',
  delivered: 'green',
  failed: 'red',
  unconfirmed: 'orange',
};

export const statusLabels: Record<SmsStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  unconfirmed: 'Unconfirmed',
};

export function SmsStatusBadge({ status }: { status: SmsStatus }) {
  return (
    <Tooltip label={smsStatusTexts[status]}>
      <Badge color={statusColors[status]} variant="light">
        {statusLabels[status]}
      </Badge>
    </Tooltip>
  );
}
