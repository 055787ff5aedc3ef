import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ViewSubscriberPage } from './view-subscriber-page.tsx';
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
  it('says the subscriber could not be loaded instead of spinning', async () => {
    at('/tips/subscribers/view/99999', '/tips/subscribers/view/:subscriber_id', <ViewSubscriberPage />);
    expect(await screen.findByText('This subscriber could not be loaded.')).toBeInTheDocument();
  });
});
