import { Alert } from '@mantine/core';
import type { BooksClosed } from '@betdesk/contract';

/**
 * Says on a month's screen (the Tax screen's month, the money bridge) that the month is closed
 * (decision 075): "November 2026 is closed (return reference …)"; its figures are those of the close.
 * Lives in: apps/web/src/components/closed-month-banner.tsx
 */
export function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export function ClosedMonthBanner({ closed, testId }: { closed: BooksClosed | null | undefined; testId: string }) {
  if (!closed) return null;
  return (
    <Alert color="blue" variant="light" title={`${monthName(closed.month)} is closed (return reference ${closed.return_reference})`} data-testid={testId}>
      Its figures are the ones it had when it closed. A later claim, refund or correction for it is posted in the open month.
    </Alert>
  );
}
