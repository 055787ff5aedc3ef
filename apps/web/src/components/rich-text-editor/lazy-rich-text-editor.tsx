import { lazy, Suspense } from 'react';
import { Loader, Stack, Text } from '@mantine/core';
import type { RichTextEditorProps } from './rich-text-editor.tsx';

const Editor = lazy(() => import('./rich-text-editor.tsx').then((m) => ({ default: m.RichTextEditor })));

/** Toolbar + content height of the editor, so the form does not jump when it arrives. */
const EDITOR_HEIGHT_PX = 290;

/**
 * The rich-text editor, fetched when a form first shows it: Tiptap, ProseMirror and the toolbar
 * are most of a post form's weight (decision 019), so the screen draws first and the editor
 * follows in its own chunk. Until then its place holds the label and a loader.
 */
export function RichTextEditor(props: RichTextEditorProps) {
  const testId = props['data-testid'] ?? 'rich-text-editor';
  return (
    <Suspense
      fallback={
        <Stack gap={4} mih={EDITOR_HEIGHT_PX} data-testid={`${testId}-loading`}>
          {props.label && (
            <Text size="sm" fw={500}>
              {props.label}
            </Text>
          )}
          <Loader size="sm" role="status" aria-label="Loading the editor" />
        </Stack>
      }
    >
      <Editor {...props} />
    </Suspense>
  );
}
