import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { EditPostPage } from './edit-post-page.tsx';
import { ViewPostPage } from './view-post-page.tsx';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async () => jsonResponse(404, { message: 'Not found', info: 'This record does not exist.' })),
  );
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function at(url: string, path: string, element: React.ReactElement) {
  renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path={path} element={element} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('a detail page whose record cannot be loaded', () => {
  it('says the post could not be loaded instead of spinning (view)', async () => {
    at('/tips/posts/view/99999', '/tips/posts/view/:post_id', <ViewPostPage />);
    expect(await screen.findByText('This post could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading')).not.toBeInTheDocument();
  });

  it('says the post could not be loaded instead of spinning (edit)', async () => {
    at('/tips/posts/edit/99999', '/tips/posts/edit/:post_id', <EditPostPage />);
    expect(await screen.findByText('This post could not be loaded.')).toBeInTheDocument();
  });
});
