import {
  TOKEN_STORAGE_KEY,
  login as loginEndpoint,
  logout as logoutEndpoint,
  refresh as refreshEndpoint,
  twoFactorVerify,
  type Credentials,
  type Role,
  type SessionUser,
  type SignedIn,
  type TwoFactorVerify,
} from '@betdesk/contract';
import { callEndpoint, setBearerToken, setUnauthorizedHandler } from './http.ts';
import { navigateTo } from './navigation.ts';
import { createStore, useStore } from './store.ts';

/**
 * The auth state machine of spec section 4. Logged in means a token is held in local storage
 * under 'token'; the user and the admin flag live in memory and come from login or refresh.
 */
export interface SessionState {
  token: string | null;
  user: SessionUser | null;
  isAdmin: boolean;
}

function readStoredToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

export const sessionStore = createStore<SessionState>({ token: readStoredToken(), user: null, isAdmin: false });

function storeToken(token: string): void {
  window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
}

function clearToken(): void {
  window.localStorage.removeItem(TOKEN_STORAGE_KEY);
}

function clearUserAndAdmin(): void {
  sessionStore.set((s) => ({ ...s, user: null, isAdmin: false }));
}

function storeUser(user: SessionUser): void {
  sessionStore.set((s) => ({ ...s, user, isAdmin: user.is_admin }));
}

const RETURN_KEY = 'betdesk:return-to';

/** Remembers the screen the user was on when the session ended by itself (expired, revoked). */
function rememberPage(): void {
  try {
    const { pathname, search, hash } = window.location;
    if (pathname === '/login' || pathname === '/') return;
    window.sessionStorage.setItem(RETURN_KEY, `${pathname}${search}${hash}`);
  } catch {
    // No session storage: the next sign-in goes to the dashboard.
  }
}

function forgetPage(): void {
  try {
    window.sessionStorage.removeItem(RETURN_KEY);
  } catch {
    // Nothing stored.
  }
}

/** Where a sign-in goes: the remembered screen (a path of this app), else the dashboard. */
export function takeReturnPath(): string {
  let saved: string | null = null;
  try {
    saved = window.sessionStorage.getItem(RETURN_KEY);
  } catch {
    saved = null;
  }
  forgetPage();
  if (!saved || !saved.startsWith('/') || saved.startsWith('//') || saved.startsWith('/login')) return '/dashboard';
  return saved;
}

/** What a right password leads to: the signed-in user, or the second factor still owed. */
export type LoginResult = { user: SessionUser } | { challenge: string };

/**
 * Login stores the token, sets the bearer header, stores the user and admin flag, goes to /dashboard.
 * A user with a second factor gets a challenge first: the login page asks for the code and finishes
 * with `verifySecondFactor`.
 */
export async function login(credentials: Credentials): Promise<LoginResult> {
  const answer = await callEndpoint(loginEndpoint, { body: credentials }, { failure: 'progress' });
  if ('challenge' in answer) return { challenge: answer.challenge };
  return { user: startSession(answer) };
}

/** The second step of a sign-in: the challenge and a code from the authenticator app (or a recovery code). */
export async function verifySecondFactor(input: TwoFactorVerify): Promise<SessionUser> {
  return startSession(await callEndpoint(twoFactorVerify, { body: input }, { failure: 'progress' }));
}

function startSession({ token, user }: SignedIn): SessionUser {
  storeToken(token);
  setBearerToken(token);
  sessionStore.set({ token, user, isAdmin: user.is_admin });
  navigateTo(takeReturnPath());
  return user;
}

/**
 * Logout calls the server. The token is cleared on success only; the user, admin flag and header
 * are cleared either way; then /login. A failure is only logged: the user asked to leave, and
 * after a password change the server has already revoked the session.
 */
export async function logout(): Promise<void> {
  try {
    await callEndpoint(logoutEndpoint, {}, { failure: 'log' });
    clearToken();
    sessionStore.set((s) => ({ ...s, token: null }));
  } catch {
    // Logged by the HTTP client; the rest of the logout happens regardless.
  } finally {
    clearUserAndAdmin();
    setBearerToken(null);
    forgetPage();
    navigateTo('/login');
  }
}

/**
 * Refresh: no token -> clear user and admin flag, go to /login. Failure -> clear the user and, if
 * asked, go to /login. Success -> store the user and, if asked, go to /dashboard.
 */
export function refresh(redirect = false): Promise<SessionUser | null> {
  // One refresh at a time: app start and the session guard may both ask for it.
  refreshing ??= runRefresh(redirect).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

let refreshing: Promise<SessionUser | null> | null = null;

async function runRefresh(redirect: boolean): Promise<SessionUser | null> {
  const token = readStoredToken();
  if (!token) {
    sessionStore.set((s) => ({ ...s, token: null }));
    clearUserAndAdmin();
    rememberPage();
    navigateTo('/login');
    return null;
  }
  setBearerToken(token);
  sessionStore.set((s) => ({ ...s, token }));
  try {
    const { user } = await callEndpoint(refreshEndpoint);
    storeUser(user);
    if (redirect) navigateTo(takeReturnPath());
    return user;
  } catch {
    sessionStore.set((s) => ({ ...s, user: null }));
    if (redirect) navigateTo('/login');
    return null;
  }
}

/** A 401 anywhere: the session is gone on the server, so it is gone here too. */
function endSessionAfterUnauthorized(): void {
  clearToken();
  setBearerToken(null);
  sessionStore.set({ token: null, user: null, isAdmin: false });
  rememberPage();
  navigateTo('/login');
}

setUnauthorizedHandler(endSessionAfterUnauthorized);
setBearerToken(sessionStore.get().token);

export function useSession(): SessionState {
  return useStore(sessionStore, (s) => s);
}

export function useUser(): SessionUser | null {
  return useStore(sessionStore, (s) => s.user);
}

export function useRole(): Role {
  return useStore(sessionStore, (s) => (s.isAdmin ? 'admin' : 'staff'));
}

export function useHasToken(): boolean {
  return useStore(sessionStore, (s) => s.token !== null);
}
