import { useEffect, useState, type ComponentType } from 'react';
import { Loader, Stack, Text, Textarea } from '@mantine/core';
import type { RichTextEditorProps } from './rich-text-editor.tsx';

type Editor = ComponentType<RichTextEditorProps>;

/** The editor's chunk, fetched once per page load (the first asker starts it, the others wait on it). */
let fetching: Promise<Editor> | null = null;
const fetchEditor = () => (fetching ??= import('./rich-text-editor.tsx').then((m) => m.RichTextEditor));

/** Toolbar + content height of the editor, so the form does not jump when it arrives. */
const EDITOR_HEIGHT_PX = 290;

/** Plain text typed before the editor arrived, as the paragraphs the editor starts from. */
export function paragraphsOf(text: string): string {
  const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text.trim() === '' ? '' : text.split(/\r?\n/).map((line) => `<p>${escape(line)}</p>`).join('');
}

/**
 * The rich-text editor, fetched when it is needed: Tiptap, ProseMirror and the toolbar are about
 * 165 kB of gzip JavaScript, most of a post form's weight (decisions 019 and 067), so a form draws
 * without them.
 * - A field that already holds content (a post being edited, the winnings page) fetches the editor at
 *   once, a loader keeping its place.
 * - An empty field is a plain text box until someone points at it (the fetch starts) or focuses it
 *   (it is used). Text typed while the editor is on its way is kept: the editor starts from it, caret
 *   at the end, so nothing typed on a slow network is lost.
 * Lives in: components/rich-text-editor (the post form and the winnings page use it).
 */
export function RichTextEditor(props: RichTextEditorProps) {
  const testId = props['data-testid'] ?? 'rich-text-editor';
  const [editor, setEditor] = useState<{ Component: Editor } | null>(null);
  const [used, setUsed] = useState(false);
  const [typed, setTyped] = useState('');
  const wanted = used || props.value !== '';

  useEffect(() => {
    if (!wanted || editor) return;
    let live = true;
    void fetchEditor().then((Component) => live && setEditor({ Component }));
    return () => {
      live = false;
    };
  }, [wanted, editor]);

  if (editor) return <editor.Component {...props} autoFocus={used} />;
  if (props.value !== '' && typed === '') {
    return (
      <Stack gap={4} mih={EDITOR_HEIGHT_PX} data-testid={`${testId}-loading`}>
        {props.label && (
          <Text size="sm" fw={500}>
            {props.label}
          </Text>
        )}
        <Loader size="sm" role="status" aria-label="Loading the editor" />
      </Stack>
    );
  }
  return (
    <Textarea
      label={props.label}
      aria-label={props.label ? undefined : (props['aria-label'] ?? 'Content')}
      error={props.error}
      value={typed}
      placeholder="Click here to write"
      minRows={8}
      autosize
      mih={EDITOR_HEIGHT_PX}
      onPointerEnter={() => void fetchEditor()}
      onFocus={() => setUsed(true)}
      onChange={(event) => {
        setTyped(event.currentTarget.value);
        props.onChange(paragraphsOf(event.currentTarget.value));
      }}
      data-testid={`${testId}-plain`}
    />
  );
}
