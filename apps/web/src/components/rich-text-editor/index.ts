export { RichTextEditor } from './lazy-rich-text-editor.tsx';
export type { RichTextEditorProps } from './rich-text-editor.tsx';
