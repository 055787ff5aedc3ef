import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Text } from '@mantine/core';
import type { AdminAlerts, ComplianceItem } from '@betdesk/contract';

// The list and its edit form load on the first opening, not with the dashboard.
const ComplianceCalendarDialog = lazy(() => import('./compliance-calendar-dialog.tsx'));

/** One line of the dashboard alert: what is wrong with the item, in words. */
function alertLine(item: ComplianceItem): string {
  if (item.status === 'missing') return `${item.label}: not recorded.`;
  if (item.status === 'overdue') return `${item.label}: ended on ${item.expires_on}. Renew it.`;
  return `${item.label}: ends on ${item.expires_on}. Renew it before then.`;
}

/**
 * The compliance calendar (decision 060): missing, due and overdue items as an alert on the admin
 * dashboard, and a button opening the dialog of every item (compliance-calendar-dialog.tsx).
 */
export function ComplianceCalendar({ calendar }: { calendar: AdminAlerts['compliance'] }) {
  const [listOpen, setListOpen] = useState(false);
  if (!calendar) return null;
  const { items } = calendar;
  const due = items.filter((i) => i.status !== 'ok');
  const worst = due.some((i) => i.status === 'overdue') ? 'red' : due.length > 0 ? 'orange' : 'green';
  return (
    <>
      <Alert color={worst} title="Compliance calendar" data-testid="compliance-alerts">
        {due.length === 0 ? (
          <Text size="sm">Every item is recorded and in date.</Text>
        ) : (
          due.map((i) => (
            <Text size="sm" key={i.key} data-testid={`compliance-alert-${i.key}`}>
              {alertLine(i)}
            </Text>
          ))
        )}
        <Button variant="light" size="xs" mt="xs" onClick={() => setListOpen(true)} data-testid="compliance-open">
          Open the compliance calendar
        </Button>
      </Alert>
      {listOpen && (
        <Suspense fallback={null}>
          <ComplianceCalendarDialog items={items} onClose={() => setListOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
