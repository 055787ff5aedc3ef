import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorTexts } from '@betdesk/contract';
import { setNavigator } from '@/lib/navigation.ts';
import { progressStore } from '@/lib/progress.ts';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { LoginPage } from './login-page.tsx';

const fetchMock = vi.fn<typeof fetch>();
const navigate = vi.fn();

async function signIn(email: string, password: string) {
  if (email) await userEvent.type(screen.getByLabelText(/Email/), email);
  if (password) await userEvent.type(screen.getByLabelText(/Password/), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  setNavigator(navigate);
  progressStore.set({ status: 'idle', pending: 0 });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setNavigator(null);
  localStorage.clear();
});

describe('LoginPage', () => {
  it('asks to sign in and requires email and password before calling the server', async () => {
    renderWithProviders(<LoginPage />);
    expect(screen.getByText('Sign in to start your session')).toBeInTheDocument();
    await signIn('', '');
    expect(await screen.findByText('The email is required')).toBeInTheDocument();
    expect(screen.getByText('The password is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says why wrong credentials failed, under the field and above the form', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(422, {
        message: errorTexts.wrongCredentials,
        info: errorTexts.wrongCredentials,
        errors: { email: [errorTexts.wrongCredentials] },
      }),
    );
    renderWithProviders(<LoginPage />);
    await signIn('admin@betdesk.local', 'wrong-password');
    expect(await screen.findByTestId('login-error')).toHaveTextContent(errorTexts.wrongCredentials);
    expect(screen.getByLabelText(/Email/)).toHaveAccessibleDescription(errorTexts.wrongCredentials);
    expect(progressStore.get().status).toBe('failed');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shows the rate-limit info of a 429', async () => {
    fetchMock.mockResolvedValue(jsonResponse(429, { message: 'Too Many Requests', info: errorTexts.tooManyLoginAttempts }));
    renderWithProviders(<LoginPage />);
    await signIn('admin@betdesk.local', 'whatever1');
    expect(await screen.findByTestId('login-error')).toHaveTextContent(errorTexts.tooManyLoginAttempts);
  });

  it('disables the button while signing in, then goes to /dashboard', async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    renderWithProviders(<LoginPage />);
    await signIn('admin@betdesk.local', 'secret123');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled());
    answer(jsonResponse(200, { token: 'tok', user: { name: 'Admin', is_admin: true } }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/dashboard'));
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('asks for the second factor after a right password, takes a recovery code, then goes to /dashboard', async () => {
    const challenge = 'c'.repeat(43);
    fetchMock
      .mockResolvedValueOnce(jsonResponse(200, { two_factor_required: true, challenge }))
      .mockResolvedValueOnce(
        jsonResponse(422, { message: 'Unprocessable', info: 'This code is not right.', errors: { code: ['This code is not right.'] } }),
      )
      .mockResolvedValueOnce(jsonResponse(200, { token: 'tok2', user: { name: 'Admin', is_admin: true } }));
    renderWithProviders(<LoginPage />);
    await signIn('admin@betdesk.local', 'secret123');
    expect(await screen.findByLabelText(/Authentication code/)).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();

    await userEvent.type(screen.getByLabelText(/Authentication code/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findAllByText('This code is not right.')).not.toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await userEvent.type(screen.getByLabelText(/Recovery code/), 'abcd-efgh-jk');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/dashboard'));
    expect(localStorage.getItem('token')).toBe('tok2');
    const [url, init] = fetchMock.mock.calls[2]!;
    expect(url).toBe('/api/auth/2fa/verify');
    expect(JSON.parse(String(init?.body))).toEqual({ challenge, code: 'abcd-efgh-jk' });
  });
});
