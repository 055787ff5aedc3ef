import { Table, Text } from '@mantine/core';

type Json = unknown;

const isRecord = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as a person reads it: text bare, nothing as a dash, the rest as compact JSON. */
function show(value: Json): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * Before and after as a readable diff: one line per field, changed fields marked, unchanged ones
 * dimmed. Values that are not objects are shown as a single line.
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
          const was = show(b[key]);
          const now = show(a[key]);
          const changed = was !== now;
          return (
            <Table.Tr key={key} data-changed={changed || undefined}>
              <Table.Td c="dimmed" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                {key}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>
                {changed ? (
                  <>
                    <Text span fz="xs" td="line-through" c="red.7">
                      {was}
                    </Text>{' '}
                    →{' '}
                    <Text span fz="xs" fw={600} c="green.8">
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
