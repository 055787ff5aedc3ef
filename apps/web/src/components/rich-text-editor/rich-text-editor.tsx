import '@mantine/tiptap/styles.css';
import { useEffect, useId, useState } from 'react';
import { Button, Group, NumberInput, Popover, Stack, Text } from '@mantine/core';
import { RichTextEditor as MantineEditor } from '@mantine/tiptap';
import { useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { IconTable, IconTableMinus } from '@tabler/icons-react';
import { MIN_TABLE_COLUMNS, MIN_TABLE_ROWS } from '@betdesk/contract';
import classes from './rich-text-editor.module.css';

export interface RichTextEditorProps {
  /** HTML. The editor takes it when it changes from outside (a loaded record). */
  value: string;
  onChange: (html: string) => void;
  label?: string;
  /** The editor's name for a screen reader when no visible label names it. */
  'aria-label'?: string;
  error?: string;
  'data-testid'?: string;
  /** Put the caret at the end once the editor is there (it was opened by a person's focus). */
  autoFocus?: boolean;
}

/** The spec's insert-table form: numeric Rows and Columns, each at least 2, and an Insert button. */
function InsertTableControl({ editor }: { editor: Editor }) {
  const [opened, setOpened] = useState(false);
  const [rows, setRows] = useState<number>(MIN_TABLE_ROWS + 1);
  const [cols, setCols] = useState<number>(MIN_TABLE_COLUMNS + 1);
  const valid = rows >= MIN_TABLE_ROWS && cols >= MIN_TABLE_COLUMNS;
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" withArrow trapFocus>
      <Popover.Target>
        <MantineEditor.Control
          onClick={() => setOpened((o) => !o)}
          aria-label="Insert table"
          title="Insert table"
          data-testid="insert-table-control"
        >
          <IconTable size={16} stroke={1.5} />
        </MantineEditor.Control>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" data-testid="insert-table-form">
          <NumberInput
            label="Rows"
            min={MIN_TABLE_ROWS}
            value={rows}
            onChange={(v) => setRows(Number(v))}
            error={rows < MIN_TABLE_ROWS ? `At least ${MIN_TABLE_ROWS}` : undefined}
          />
          <NumberInput
            label="Columns"
            min={MIN_TABLE_COLUMNS}
            value={cols}
            onChange={(v) => setCols(Number(v))}
            error={cols < MIN_TABLE_COLUMNS ? `At least ${MIN_TABLE_COLUMNS}` : undefined}
          />
          <Button
            size="xs"
            disabled={!valid}
            onClick={() => {
              editor.chain().focus().insertTable({ rows, cols, withHeaderRow: true }).run();
              setOpened(false);
            }}
          >
            Insert
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * The shared rich-text editor (Tiptap through @mantine/tiptap): headings, emphasis, lists, links,
 * quotes and tables. Its HTML is sanitized again by the server on save.
 */
export function RichTextEditor({
  value,
  onChange,
  label,
  'aria-label': ariaLabel,
  error,
  'data-testid': testId = 'rich-text-editor',
  autoFocus = false,
}: RichTextEditorProps) {
  const labelId = useId();
  const editor = useEditor({
    // The editable area is a text box named by the visible label (or aria-label): axe found it nameless.
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        ...(label ? { 'aria-labelledby': labelId } : { 'aria-label': ariaLabel ?? 'Content' }),
      },
    },
    extensions: [
      StarterKit.configure({ link: { openOnClick: false } }),
      Table.configure({ resizable: false }),
      TableRow,
      TableHeader,
      TableCell,
    ],
    content: value,
    autofocus: autoFocus ? 'end' : false,
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  useEffect(() => {
    if (editor && value !== (editor.isEmpty ? '' : editor.getHTML())) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);

  return (
    <Stack gap={4} data-testid={testId}>
      {label && (
        <Text id={labelId} size="sm" fw={500}>
          {label}
        </Text>
      )}
      <MantineEditor editor={editor} style={error ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}>
        <MantineEditor.Toolbar>
          <MantineEditor.ControlsGroup>
            <MantineEditor.Bold />
            <MantineEditor.Italic />
            <MantineEditor.Underline />
            <MantineEditor.Strikethrough />
            <MantineEditor.ClearFormatting />
          </MantineEditor.ControlsGroup>
          <MantineEditor.ControlsGroup>
            <MantineEditor.H2 />
            <MantineEditor.H3 />
            <MantineEditor.Blockquote />
            <MantineEditor.BulletList />
            <MantineEditor.OrderedList />
          </MantineEditor.ControlsGroup>
          <MantineEditor.ControlsGroup>
            <MantineEditor.Link />
            <MantineEditor.Unlink />
          </MantineEditor.ControlsGroup>
          <MantineEditor.ControlsGroup>
            {editor && <InsertTableControl editor={editor} />}
            <MantineEditor.Control
              onClick={() => editor?.chain().focus().deleteTable().run()}
              aria-label="Delete table"
              title="Delete table"
            >
              <IconTableMinus size={16} stroke={1.5} />
            </MantineEditor.Control>
          </MantineEditor.ControlsGroup>
          <MantineEditor.ControlsGroup>
            <MantineEditor.Undo />
            <MantineEditor.Redo />
          </MantineEditor.ControlsGroup>
        </MantineEditor.Toolbar>
        <MantineEditor.Content mih={240} className={classes.content} />
      </MantineEditor>
      {error && (
        <Group gap={4} c="red" fz="xs" role="alert">
          {error}
        </Group>
      )}
    </Stack>
  );
}
