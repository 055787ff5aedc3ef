import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/format.ts';
import { paths } from '@/config/paths.ts';

/** What the banners draw: the gateway's backlog, and its refusal in words while current. */
export interface SmsGatewayState {
  retrying: number;
  oldest_retrying_on: string | null;
  causes: { cause: string; retrying: number }[];
  refusal: { text: string; reason: string | null; at: string } | null;
}

/**
 * The admin banners when Africa's Talking refuses the sender id or the credentials (until a message
 * goes out again) and, with `backlog`, a line on messages still being retried. With `linkToLog`
 * (away from the SMS log), a link to the log, where failed messages are resent by cause. Drawn from
 * data given (the SMS log's backlog query, or the dashboard's admin alerts): no schema of its own.
 */
export function SmsGatewayBanners({ data, backlog = false, linkToLog = false }: { data: SmsGatewayState; backlog?: boolean; linkToLog?: boolean }) {
  const retryingCauses = data.causes.filter((c) => c.retrying > 0);
  return (
    <>
      {data.refusal && (
        <Alert color="red" title="SMS are not going out" data-testid="sms-refusal-banner">
          {data.refusal.text}
          {data.refusal.reason && (
            <Text size="sm" c="dimmed">
              {data.refusal.reason}, {formatDateTime(data.refusal.at)}
            </Text>
          )}
          {linkToLog && <LogLink />}
        </Alert>
      )}
      {backlog && data.retrying > 0 && (
        <Alert color="orange" title="SMS waiting for the gateway" data-testid="sms-backlog">
          {data.retrying === 1 ? '1 message is' : `${data.retrying} messages are`} being retried
          {data.oldest_retrying_on ? ` (oldest queued ${formatDateTime(data.oldest_retrying_on)})` : ''}
          {retryingCauses.length > 0 ? `: ${retryingCauses.map((c) => `${c.cause} ${c.retrying}`).join(', ')}` : ''}.
          {linkToLog && !data.refusal && <LogLink />}
        </Alert>
      )}
    </>
  );
}

function LogLink() {
  return (
    <Text size="sm" mt={4}>
      <Anchor component={Link} to={paths.sms.log} size="sm" data-testid="sms-alert-log-link">
        Open the SMS log
      </Anchor>
    </Text>
  );
}
