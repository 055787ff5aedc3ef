import { Text } from '@mantine/core';
import { refusalStore } from '@/lib/http.ts';
import { useStore } from '@/lib/store.ts';

/** An empty table's line: the server's refusal when this screen's read was refused (403), else the text given. */
export function EmptyText({ text }: { text: string }) {
  const refusal = useStore(refusalStore, (value) => value);
  const refused = refusal !== null && refusal.screen === window.location.pathname;
  return (
    <Text c={refused ? 'red' : 'dimmed'} data-testid={refused ? 'table-refused' : undefined}>
      {refused ? refusal.text : text}
    </Text>
  );
}
