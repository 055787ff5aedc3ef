import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@betdesk/contract';
import { jsonResponse } from '@/testing/test-utils.tsx';
import { login, logout, refresh, sessionStore, takeReturnPath } from './auth.ts';
import { get, getBearerToken, setBearerToken } from './http.ts';
import { setNavigator } from './navigation.ts';

vi.mock('./feedback.tsx', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./feedback.tsx')>();
  return { ...actual, present: vi.fn(), showToast: vi.fn() };
});

const admin: SessionUser = {
  id: 1,
  user_id: 1,
  name: 'Achieng Otieno',
  phone_number: '254712345678',
  email: 'admin@betdesk.local',
  gender: 'female',
  category_id: 1,
  category_name: 'Admin',
  total_clients: 0,
  last_login: null,
  photo: null,
  is_admin: true,
};

const fetchMock = vi.fn<typeof fetch>();
const navigate = vi.fn<(to: string | number) => void>();

function signedIn(token = 'live-token') {
  localStorage.setItem('token', token);
  setBearerToken(token);
  sessionStore.set({ token, user: admin, isAdmin: true });
}

beforeEach(() => {
  fetchMock.mockReset();
  navigate.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  setNavigator(navigate);
  localStorage.clear();
  sessionStorage.clear();
  setBearerToken(null);
  sessionStore.set({ token: null, user: null, isAdmin: false });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setNavigator(null);
});

describe('login', () => {
  it('stores the token, sets the bearer header, stores the user and admin flag, goes to /dashboard', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { token: 'new-token', user: admin }));
    await login({ email: 'admin@betdesk.local', password: 'secret123' });
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(getBearerToken()).toBe('new-token');
    expect(sessionStore.get()).toEqual({ token: 'new-token', user: admin, isAdmin: true });
    expect(navigate).toHaveBeenCalledWith('/dashboard');
    const [url, init] = fetchMock.mock.lastCall ?? [];
    expect(url).toBe('/api/auth/login');
    expect(init?.body).toBe('{"email":"admin@betdesk.local","password":"secret123"}');
  });

  it('sets no admin flag for staff', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { token: 't', user: { ...admin, category_id: 2, is_admin: false } }));
    await login({ email: 'staff@betdesk.local', password: 'secret123' });
    expect(sessionStore.get().isAdmin).toBe(false);
  });

  it('keeps nothing and stays put when the credentials are wrong', async () => {
    fetchMock.mockResolvedValue(jsonResponse(422, { info: 'These credentials do not match our records.' }));
    await expect(login({ email: 'a@b.c', password: 'nope' })).rejects.toMatchObject({ status: 422 });
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStore.get().user).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('logout', () => {
  it('calls the server, clears the token, user, admin flag and header, then goes to /login', async () => {
    signedIn();
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await logout();
    const [url, init] = fetchMock.mock.lastCall ?? [];
    expect(url).toBe('/api/auth/logout');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer live-token');
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStore.get()).toEqual({ token: null, user: null, isAdmin: false });
    expect(getBearerToken()).toBeNull();
    expect(navigate).toHaveBeenLastCalledWith('/login');
  });

  it('keeps the token when the server call fails, but clears user, admin flag and header', async () => {
    signedIn();
    fetchMock.mockResolvedValue(jsonResponse(500, {}));
    await logout();
    expect(localStorage.getItem('token')).toBe('live-token');
    expect(sessionStore.get().user).toBeNull();
    expect(sessionStore.get().isAdmin).toBe(false);
    expect(getBearerToken()).toBeNull();
    expect(navigate).toHaveBeenLastCalledWith('/login');
  });
});

describe('refresh', () => {
  it('with no token clears the user and admin flag and goes to /login', async () => {
    sessionStore.set({ token: null, user: admin, isAdmin: true });
    expect(await refresh()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(sessionStore.get()).toEqual({ token: null, user: null, isAdmin: false });
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('on success stores the user, sending the stored token', async () => {
    localStorage.setItem('token', 'stored-token');
    fetchMock.mockResolvedValue(jsonResponse(200, { user: admin }));
    expect(await refresh()).toEqual(admin);
    const [url, init] = fetchMock.mock.lastCall ?? [];
    expect(url).toBe('/api/auth/refresh');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer stored-token');
    expect(sessionStore.get()).toEqual({ token: 'stored-token', user: admin, isAdmin: true });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('on success goes to /dashboard when asked', async () => {
    localStorage.setItem('token', 'stored-token');
    fetchMock.mockResolvedValue(jsonResponse(200, { user: admin }));
    await refresh(true);
    expect(navigate).toHaveBeenCalledWith('/dashboard');
  });

  it('on failure clears the user and goes to /login only when asked', async () => {
    signedIn();
    fetchMock.mockResolvedValue(jsonResponse(500, {}));
    await refresh();
    expect(sessionStore.get().user).toBeNull();
    expect(navigate).not.toHaveBeenCalled();

    signedIn();
    fetchMock.mockResolvedValue(jsonResponse(500, {}));
    await refresh(true);
    expect(sessionStore.get().user).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('runs once when asked twice at the same time', async () => {
    localStorage.setItem('token', 'stored-token');
    fetchMock.mockImplementation(async () => jsonResponse(200, { user: admin }));
    await Promise.all([refresh(), refresh()]);
    expect(fetchMock).toHaveBeenCalledOnce();
  });
});

describe('a 401 anywhere', () => {
  it('clears the session and sends the browser to /login', async () => {
    signedIn();
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Unauthorized', info: 'You need to log in first.' }));
    await expect(get('/api/dashboard')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('token')).toBeNull();
    expect(getBearerToken()).toBeNull();
    expect(sessionStore.get()).toEqual({ token: null, user: null, isAdmin: false });
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});

describe('signing in again after the session ended (decision 003)', () => {
  it('returns to the screen the user was on, with its query, after a 401', async () => {
    window.history.replaceState(null, '', '/mpesa/unclaimed?page=3');
    signedIn();
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { message: 'Unauthorized', info: 'You need to log in first.' }));
    await expect(get('/api/mpesa')).rejects.toMatchObject({ status: 401 });
    expect(navigate).toHaveBeenLastCalledWith('/login');
    window.history.replaceState(null, '', '/login');
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { token: 'again', user: admin }));
    await login({ email: 'admin@betdesk.local', password: 'secret123' });
    expect(navigate).toHaveBeenLastCalledWith('/mpesa/unclaimed?page=3');
  });

  it('goes to the dashboard after a logout the user asked for, and the return path is used once', async () => {
    window.history.replaceState(null, '', '/bets/open');
    signedIn();
    fetchMock.mockResolvedValueOnce(jsonResponse(200, {}));
    await logout();
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { token: 'again', user: admin }));
    await login({ email: 'admin@betdesk.local', password: 'secret123' });
    expect(navigate).toHaveBeenLastCalledWith('/dashboard');
  });

  it('never returns to a path outside the app', () => {
    sessionStorage.setItem('betdesk:return-to', '//evil.example/x');
    expect(takeReturnPath()).toBe('/dashboard');
    sessionStorage.setItem('betdesk:return-to', '/clients/4');
    expect(takeReturnPath()).toBe('/clients/4');
    expect(takeReturnPath()).toBe('/dashboard');
  });
});
