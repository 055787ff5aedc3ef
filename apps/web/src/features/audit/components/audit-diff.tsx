import { Table, Text } from '@mantine/core';
import { formatCents, formatDateTime } from '@betdesk/contract';
import { REFUND_REASON_LABELS } from '@/components/refund-request/index.ts';

type Json = unknown;

const isRecord = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Words of a column name written as people write them. */
const WORDS: Record<string, string> = { id: 'ID', sms: 'SMS', mpesa: 'M-Pesa', url: 'URL', ussd: 'USSD', kes: 'KES', msisdn: 'phone' };

/** An instant as the database and the API write it (2026-11-26T16:28:09.806Z, or with an offset). */
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** A stored field's name in plain words: amount_cents -> "Amount", starts_at -> "Starts at", clientId -> "Client ID". */
export function fieldLabel(key: string): string {
  const snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const words = snake.replace(/_cents$/, '').split('_').filter(Boolean).map((w) => WORDS[w] ?? w);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Codes the audit rows store whose words the screens already use (a refund's reason). */
const CODE_WORDS: Record<string, string> = { ...REFUND_REASON_LABELS };

/** A stored code (paid_twice, awaiting_approval) as words; the code itself stays in the tooltip. */
const CODE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/** A code value in words, or null when the value is not a code. */
export function codeWords(value: string): string | null {
  if (CODE_WORDS[value]) return CODE_WORDS[value];
  if (!CODE.test(value)) return null;
  const text = value.split('_').map((w) => WORDS[w] ?? w).join(' ');
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
  if (typeof value === 'string') return codeWords(value) ?? value;
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
          // A code shown in words keeps the stored code in its tooltip.
          const codeOf = (value: Json) => (typeof value === 'string' && codeWords(value) !== null ? value : undefined);
          const changed = was !== now;
          return (
            <Table.Tr key={key} data-changed={changed || undefined}>
              <Table.Td c="dimmed" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                {fieldLabel(key)}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>
                {changed ? (
                  <>
                    <Text span fz="xs" td="line-through" c="red.9" title={codeOf(b[key])}>
                      {was}
                    </Text>{' '}
                    →{' '}
                    <Text span fz="xs" fw={600} c="green.9" title={codeOf(a[key])}>
                      {now}
                    </Text>
                  </>
                ) : (
                  <Text span fz="xs" c="dimmed" title={codeOf(a[key])}>
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
