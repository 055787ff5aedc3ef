import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { theme } from '@/app/provider.tsx';
import { modalsHostReady } from '@/lib/feedback.tsx';

// Components render here inside Mantine's modal host itself: popups and confirmations open at once.
modalsHostReady();

function Providers({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={client}>
        <ModalsProvider>{children}</ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

export function renderWithProviders(ui: ReactElement) {
  return render(ui, { wrapper: Providers });
}

/** A fetch answer as the API gives it. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Renders a page as the browser would at `url`: inside the router, and under a route `path` when the
 * page reads its parameters (`/tips/posts/view/:post_id`).
 */
export function renderAt(url: string, element: ReactElement, path?: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      {path ? (
        <Routes>
          <Route path={path} element={element} />
        </Routes>
      ) : (
        element
      )}
    </MemoryRouter>,
  );
}

/**
 * For every test of the file: fetch answers with `answer` (given the request's URL), and the stub and
 * every spy are undone after each test. `tableHeight` gives tables a height, so that their virtual rows
 * render in jsdom; `quiet` silences the console's debug and error lines of an expected failure.
 * Returns the fetch mock, to read which requests were made.
 */
export function answerRequests(
  answer: (url: URL, init?: RequestInit) => Response | Promise<Response>,
  options: { tableHeight?: number; quiet?: boolean } = {},
) {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    if (options.tableHeight) vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(options.tableHeight);
    if (options.quiet) {
      vi.spyOn(console, 'debug').mockImplementation(() => {});
      vi.spyOn(console, 'error').mockImplementation(() => {});
    }
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (url, init) => answer(new URL(String(url), 'http://localhost'), init));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return fetchMock;
}
