import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PostCategoriesPanel } from './post-categories-panel.tsx';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>(async () => jsonResponse(200, { info: 'Post category saved successfully' }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('post categories on the Catalogue', () => {
  it('saves a new post category marked as free tips', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <PostCategoriesPanel
        rows={[
          { id: 1, name: 'Football', posts: 3, public: false },
          { id: 2, name: 'Free tips', posts: 1, public: true },
        ]}
        loading={false}
      />,
    );
    await user.click(screen.getByTestId('add-post-category'));
    await user.type(await screen.findByLabelText(/Name/), 'Jackpot');
    await user.click(screen.getByLabelText(/Free tips: show its posts in full/));
    await user.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toContain('/api/catalogue/post-categories/store');
    expect(JSON.parse(String(init?.body))).toMatchObject({ name: 'Jackpot', public: true });
  });
});
