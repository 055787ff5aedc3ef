import { Badge } from '@mantine/core';

/** One colour per meaning, whatever the list: green done/good, orange waiting, red refused/ended. */
const COLORS: Record<string, string> = {
  active: 'green',
  claimed: 'green',
  paid: 'green',
  delivered: 'green',
  ok: 'green',
  open: 'blue',
  sending: 'blue',
  sent: 'cyan',
  unclaimed: 'orange',
  unpaid: 'orange',
  pending: 'orange',
  unconfirmed: 'orange',
  queued: 'gray',
  closed: 'gray',
  inactive: 'red',
  expired: 'red',
  rejected: 'red',
  reversed: 'red',
  failed: 'red',
};

export function statusColor(status: string): string {
  return COLORS[status.trim().toLowerCase()] ?? 'gray';
}

/** "unclaimed" → "Unclaimed". */
export function statusLabel(status: string): string {
  const text = status.trim();
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

/** THE status badge of every table: the same size, variant, colour and wording for the same word. */
export function StatusBadge({ status, label, 'data-testid': testId }: { status: string; label?: string; 'data-testid'?: string }) {
  return (
    <Badge color={statusColor(status)} variant="light" size="sm" data-testid={testId}>
      {label ?? statusLabel(status)}
    </Badge>
  );
}
