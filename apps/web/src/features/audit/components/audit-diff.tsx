import { Table, Text } from '@mantine/core';
import { formatCents, formatDateTime } from '@betdesk/contract';

type Json = unknown;

const isRecord = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Words of a column name written as people write them. */
const WORDS: Record<string, string> = { id: 'ID', sms: 'SMS', mpesa: 'M-Pesa', url: 'URL', ussd: 'USSD', kes: 'KES', msisdn: 'phone' };

/** An instant as the database and the API write it (2026-11-26T16:28:09.806Z, or with an offset). */
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** A stored field's name in plain words: amount_cents -> "Amount", starts_at -> "Starts at". */
export function fieldLabel(key: string): string {
  const words = key.replace(/_cents$/, '').split('_').filter(Boolean).map((w) => WORDS[w] ?? w);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A value as a person reads it: money (a *_cents field) in KES, an instant in Nairobi time, yes/no,
 * nothing as a dash, other text bare, the rest as compact JSON.
 */
export function showValue(key: string, value: Json): string {
  if (value === undefined || value === null) return '—';
  if (key.endsWith('_cents') && (typeof value === 'number' || (typeof value === 'string' && /^-?\d+$/.test(value)))) return formatCents(value);
  if (typeof value === 'string' && INSTANT.test(value)) return `${formatDateTime(value)} Nairobi`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * Before and after as a readable diff: one line per field in plain words, changed fields marked,
 * unchanged ones dimmed. Values that are not objects are shown as a single line. The stored
 * entry keeps the database's terms (cents, UTC); only the screen translates (decision 018).
 */
export function AuditDiff({ before, after }: { before: Json; after: Json }) {
  const b = isRecord(before) ? before : before == null ? {} : { value: before };
  const a = isRecord(after) ? after : after == null ? {} : { value: after };
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  if (keys.length === 0) return <Text size="xs" c="dimmed">no details</Text>;
  return (
    <Table withRowBorders={false} verticalSpacing={0} horizontalSpacing={4} fz="xs" data-testid="audit-diff">
      <Table.Tbody>
        {keys.map((key) => {
          const was = showValue(key, b[key]);
          const now = showValue(key, a[key]);
          const changed = was !== now;
          return (
            <Table.Tr key={key} data-changed={changed || undefined}>
              <Table.Td c="dimmed" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                {fieldLabel(key)}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>
                {changed ? (
                  <>
                    <Text span fz="xs" td="line-through" c="red.9">
                      {was}
                    </Text>{' '}
                    →{' '}
                    <Text span fz="xs" fw={600} c="green.9">
                      {now}
                    </Text>
                  </>
                ) : (
                  <Text span fz="xs" c="dimmed">
                    {now}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
