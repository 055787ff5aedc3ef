import { useState } from 'react';
import { Button, Card, Group, Stack, Title } from '@mantine/core';
import { LoadState } from '@/components/load-state.tsx';
import { RichTextEditor } from '@/components/rich-text-editor/index.ts';
import { isHttpError } from '@/lib/http.ts';
import { useWinnings } from '../api/get-winnings.ts';
import { useSaveWinnings } from '../api/update-winnings.ts';
import { RecordBlockControl } from './record-block-control.tsx';

function WinningsEditor({ initial }: { initial: string }) {
  const [content, setContent] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const save = useSaveWinnings();
  const submit = async () => {
    setError(undefined);
    try {
      await save.mutateAsync({ content });
    } catch (e) {
      if (isHttpError(e)) setError(e.errors?.content?.join(' '));
    }
  };
  return (
    <Stack>
      <RecordBlockControl onInsert={(marker) => setContent((html) => `${html}<p>${marker}</p>`)} />
      <RichTextEditor value={content} onChange={setContent} error={error} aria-label={'Winnings & Results'} data-testid="winnings-editor" />
      <Group justify="flex-end">
        <Button onClick={() => void submit()} loading={save.isPending} disabled={save.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}

/** /tips/winnings: the Winnings & Results page in the rich-text editor, with Save. */
export function WinningsPage() {
  const winnings = useWinnings();
  return (
    <Stack>
      <Title order={1} size="h2">Winnings &amp; Results</Title>
      <Card withBorder>{winnings.data ? <WinningsEditor initial={winnings.data.content} /> : <LoadState failed={winnings.isError} what="page" />}</Card>
    </Stack>
  );
}
