import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { smsBacklog, smsGatewayRefusalTexts } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { formatDateTime } from '@/lib/format.ts';
import { paths } from '@/config/paths.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/sms/backlog (admins): what waits or failed at the SMS gateway. */
export function useSmsBacklog(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.sms.backlog(),
      queryFn: () => callEndpoint(smsBacklog, {}, { failure: 'log' }),
      enabled,
      refetchInterval: 60_000,
    }),
  );
}

/**
 * The admin banner when Africa's Talking refuses the sender id or the credentials (until a message
 * goes out again) and, with `backlog`, a line on messages still being retried. With `linkToLog`
 * (away from the SMS log), a link to the log, where failed messages are resent by cause.
 */
export function SmsGatewayAlert({
  enabled,
  backlog = false,
  linkToLog = false,
}: {
  enabled: boolean;
  backlog?: boolean;
  linkToLog?: boolean;
}) {
  const data = useSmsBacklog(enabled).data;
  if (!data) return null;
  const retryingCauses = data.causes.filter((c) => c.retrying > 0);
  return (
    <>
      {data.refusal && (
        <Alert color="red" title="SMS are not going out" data-testid="sms-refusal-banner">
          {smsGatewayRefusalTexts[data.refusal.cause]}
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
