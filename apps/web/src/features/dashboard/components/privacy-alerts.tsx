import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { formatDateTime, plural } from '@/lib/format.ts';
import type { AdminAlerts } from '@betdesk/contract';

const HOUR = 3_600_000;

/**
 * The admin dashboard's Data Protection warnings: requests past their deadline, and each breach's
 * 72-hour clock until the Data Commissioner is told.
 */
export function PrivacyAlerts({ alerts }: { alerts: AdminAlerts['privacy'] }) {
  if (!alerts) return null;
  const { overdue_requests: overdue, breaches } = alerts;
  if (overdue === 0 && breaches.length === 0) return null;
  return (
    <Alert color="red" title="Data protection" data-testid="privacy-alerts">
      {breaches.map((b) => {
        const left = Math.round((new Date(b.notify_by).getTime() - Date.now()) / HOUR);
        return (
          <Text size="sm" key={b.id}>
            Breach “{b.description}”: tell the Data Commissioner by {formatDateTime(b.notify_by)} (
            {left >= 0 ? `${plural(left, 'hour')} left` : `${plural(-left, 'hour')} late`}).
          </Text>
        );
      })}
      {overdue > 0 && <Text size="sm">{plural(overdue, 'request')} about people's data past the deadline.</Text>}
      <Anchor component={Link} to={paths.privacy} size="sm">
        Open Privacy
      </Anchor>
    </Alert>
  );
}
