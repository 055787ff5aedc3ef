import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { sessionStore } from '@/lib/auth.ts';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { routes as settingsRoutes } from '@/features/settings/routes.tsx';
import { accessOf, ScreenForRole } from './role-gate.tsx';

afterEach(() => {
  act(() => sessionStore.set((s) => ({ ...s, isAdmin: false })));
});

function openAt(url: string) {
  const router = createMemoryRouter(
    [
      {
        element: <ScreenForRole />,
        children: [
          { path: '/admin-only', handle: { title: 'Settings', access: 'manage:settings' }, element: <p>Filters, Export CSV and 0 records</p> },
          { path: '/open', handle: { title: 'Open bets' }, element: <p>Open bets screen</p> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

describe('a screen a role may not open', () => {
  it('shows a staff member the refusal alone, with nothing of the screen drawn around it', async () => {
    openAt('/admin-only');
    expect(await screen.findByRole('heading', { name: 'This screen is for admins' })).toBeInTheDocument();
    expect(screen.queryByText(/Export CSV/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('shows an admin the screen, and every signed-in user a screen that names no permission', async () => {
    act(() => sessionStore.set((s) => ({ ...s, isAdmin: true })));
    openAt('/admin-only');
    expect(await screen.findByText(/Export CSV/)).toBeInTheDocument();
    expect(screen.queryByTestId('screen-refused')).not.toBeInTheDocument();
  });

  it('reads the permission from the route, as the Settings route declares it', () => {
    expect(accessOf(settingsRoutes.map((r) => ({ handle: r.handle })))).toBe('manage:settings');
    expect(accessOf([{ handle: { title: 'Open bets' } }])).toBeNull();
  });
});
