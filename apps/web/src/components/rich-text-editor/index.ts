export { RichTextEditor, type RichTextEditorProps } from './rich-text-editor.tsx';
