import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { paragraphsOf, RichTextEditor } from './lazy-rich-text-editor.tsx';

function Field({ initial = '' }: { initial?: string }) {
  const [html, setHtml] = useState(initial);
  return (
    <>
      <RichTextEditor label="Content" value={html} onChange={setHtml} data-testid="post-content" />
      <output data-testid="html">{html}</output>
    </>
  );
}

describe('the rich-text editor, fetched when it is needed', () => {
  it('an empty field is a plain box that keeps what is typed, as paragraphs, and becomes the editor once used', async () => {
    renderWithProviders(<Field />);
    const plain = screen.getByTestId('post-content-plain');
    expect(document.querySelector('.ProseMirror')).toBeNull();
    fireEvent.change(plain, { target: { value: 'Arsenal <at home>\nBoth teams score' } });
    expect(screen.getByTestId('html').textContent).toBe('<p>Arsenal &lt;at home&gt;</p><p>Both teams score</p>');
    fireEvent.focus(plain);
    await waitFor(() => expect(document.querySelector('.ProseMirror')).not.toBeNull(), { timeout: 15_000 });
    expect(document.querySelector('.ProseMirror')!.textContent).toBe('Arsenal <at home>Both teams score');
    expect(screen.queryByTestId('post-content-plain')).toBeNull();
  });

  it('a field that holds content fetches the editor at once', async () => {
    renderWithProviders(<Field initial="<p>Saved winnings</p>" />);
    expect(screen.getByTestId('post-content-loading')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.ProseMirror')?.textContent).toBe('Saved winnings'), { timeout: 15_000 });
  });

  it('writes typed text as escaped paragraphs, and nothing for blank text', () => {
    expect(paragraphsOf('  ')).toBe('');
    expect(paragraphsOf('a & b\r\nc')).toBe('<p>a &amp; b</p><p>c</p>');
  });
});
