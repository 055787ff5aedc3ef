import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { RecordBlockControl } from './record-block-control.tsx';

const fetchMock = vi.fn<typeof fetch>();
const tip = (id: number, name: string, code: string) => ({ bet_category_id: id, bet_category: name, code, content: '', updated_at: null, recipients: 0 });

beforeEach(() => {
  fetchMock.mockReset();
  // A category coded ALL, saved before that code was refused, beside an ordinary one.
  fetchMock.mockImplementation(async (url) =>
    String(url) === '/api/tips/posts/update-sms-tips' ? jsonResponse(200, { posts: [tip(1, 'Daily 2 Odds', 'D2'), tip(2, 'Everything', 'ALL')] }) : jsonResponse(404, {}),
  );
  vi.stubGlobal('fetch', fetchMock);
  // Mantine's dropdown scrolls the selected option into view; jsdom has no layout to scroll.
  Element.prototype.scrollIntoView = vi.fn();
});

afterEach(() => {
  vi.unstubAllGlobals();
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});

describe('Insert record block', () => {
  it('offers every category once beside "All categories", even one coded ALL, and inserts the chosen one', async () => {
    const inserted: string[] = [];
    renderWithProviders(<RecordBlockControl onInsert={(marker) => inserted.push(marker)} />);
    await userEvent.click(screen.getByRole('textbox', { name: 'Record of' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Daily 2 Odds (D2)', hidden: true }));
    await userEvent.click(screen.getByRole('textbox', { name: 'Record of' }));
    expect(screen.getAllByRole('option', { name: 'All categories', hidden: true })).toHaveLength(1);
    expect(screen.queryByRole('option', { name: 'Everything (ALL)', hidden: true })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Insert record block' }));
    expect(inserted).toEqual(['[[record:D2:this-month]]']);
  });
});
