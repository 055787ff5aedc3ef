import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MODAL_CLOSE_DELAY_MS, successTexts, type SessionUser } from '@betdesk/contract';
import { sessionStore } from '@/lib/auth.ts';
import { setNavigator } from '@/lib/navigation.ts';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { ProfilePage } from './profile-page.tsx';

const user: SessionUser = {
  id: 3,
  user_id: 3,
  name: 'Wanjiru Mwangi',
  phone_number: '254712345678',
  email: 'wanjiru@betdesk.local',
  gender: 'female',
  category_id: 2,
  category_name: 'Agent',
  total_clients: 12,
  last_login: '2025-03-05T11:30:00Z',
  photo: null,
  is_admin: false,
};

const fetchMock = vi.fn<typeof fetch>();
const navigate = vi.fn();

function answer(url: string): Response {
  if (url === '/api/auth/me') return jsonResponse(200, { user });
  if (url === '/api/auth/save-password') return jsonResponse(200, { info: successTexts.passwordSaved });
  if (url === '/api/auth/logout') return jsonResponse(200, {});
  return jsonResponse(404, {});
}

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) => answer(String(url)));
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  setNavigator(navigate);
  localStorage.setItem('token', 'tok');
  sessionStore.set({ token: 'tok', user, isAdmin: false });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setNavigator(null);
  localStorage.clear();
});

describe('ProfilePage', () => {
  it('shows initials, name, the phone as 07..., email and last login in Nairobi time', async () => {
    renderWithProviders(<ProfilePage />);
    const card = await screen.findByTestId('profile-card');
    expect(card).toHaveTextContent('WM');
    expect(card).toHaveTextContent('Wanjiru Mwangi');
    expect(card).toHaveTextContent('0712345678');
    expect(card).toHaveTextContent('wanjiru@betdesk.local');
    expect(card).toHaveTextContent('05 Mar 2025, 14:30');
  });

  it('changes the password, shows the server info, closes after 3 s and logs the user out', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithProviders(<ProfilePage />);
    await userEvent.click(await screen.findByTestId('change-password'));
    await userEvent.type(await screen.findByLabelText(/New password/), 'new-secret-1');
    await userEvent.type(screen.getByLabelText(/Retype password/), 'new-secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));

    expect(await screen.findByTestId('form-success')).toHaveTextContent('Done! You need to login again...');
    const saveCall = fetchMock.mock.calls.find(([url]) => url === '/api/auth/save-password');
    expect(saveCall?.[1]?.body).toBe('{"password":"new-secret-1","password_confirmation":"new-secret-1"}');
    expect(navigate).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(MODAL_CLOSE_DELAY_MS));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login'));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/auth/logout')).toBe(true);
    expect(sessionStore.get().user).toBeNull();
  });
});
