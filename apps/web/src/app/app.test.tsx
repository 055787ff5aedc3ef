import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { SessionUser } from '@betdesk/contract';
import { sessionStore } from '@/lib/auth.ts';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { routeTree } from './router.tsx';

const staff: SessionUser = {
  id: 7,
  user_id: 7,
  name: 'Brian Kamau',
  phone_number: '254722000111',
  email: 'brian@betdesk.local',
  gender: 'male',
  category_id: 2,
  category_name: 'Agent',
  total_clients: 4,
  last_login: '2025-03-05T11:30:00Z',
  photo: null,
  is_admin: false,
};

function renderAt(path: string) {
  const router = createMemoryRouter(routeTree, { initialEntries: [path] });
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  sessionStore.set({ token: null, user: null, isAdmin: false });
  vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 200 })));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routes', () => {
  it('sends a visitor without a token to /login', async () => {
    const router = renderAt('/dashboard');
    expect(await screen.findByText('Sign in to start your session')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('greets the signed-in user on the dashboard, inside the layout', async () => {
    sessionStore.set({ token: 't', user: staff, isAdmin: false });
    renderAt('/dashboard');
    expect(await screen.findByTestId('welcome')).toHaveTextContent('Welcome, Brian Kamau');
    const sidebar = screen.getByTestId('nav-sidebar');
    expect(within(sidebar).getByText('TIPS SECTION')).toBeInTheDocument();
    expect(within(sidebar).queryByText('Users')).not.toBeInTheDocument();
    expect(screen.getByTestId('footer')).toHaveTextContent(`© ${new Date().getFullYear()} Betdesk`);
  });

  it('shows the 404 page for an unknown path, with links to the dashboard and back', async () => {
    sessionStore.set({ token: 't', user: staff, isAdmin: false });
    const router = renderAt('/no/such/screen');
    const page = await screen.findByTestId('not-found');
    expect(page).toHaveTextContent('Oops! Page not found.');
    expect(page).toHaveTextContent('We could not find the page you were looking for.');
    await userEvent.click(within(page).getByRole('link', { name: 'Go to the dashboard' }));
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
