import { useMutation } from '@tanstack/react-query';
import type { Credentials } from '@betdesk/contract';
import { login, verifySecondFactor } from '@/lib/auth.ts';

export type CredentialErrors = Partial<Record<keyof Credentials, string>>;

/**
 * The form's own checks: the contract's Credentials rules (required, lengths) with its words. The
 * login screen is the first load (decision 016), so it checks two fields by hand instead of loading the
 * schema and form libraries; the server checks the Credentials schema and its 422 shows under the fields.
 */
export function checkCredentials(credentials: Credentials): CredentialErrors {
  const errors: CredentialErrors = {};
  if (credentials.email.trim().length === 0) errors.email = 'The email is required';
  else if (credentials.email.trim().length > 254) errors.email = 'The email is too long';
  if (credentials.password.length === 0) errors.password = 'The password is required';
  else if (credentials.password.length > 200) errors.password = 'The password is too long';
  return errors;
}

/** POST /api/auth/login through the auth state machine (stores the session, goes to /dashboard). */
export function useLogin() {
  return useMutation({ mutationFn: login });
}

/** POST /api/auth/2fa/verify: the second step of a sign-in with a second factor. */
export function useVerifySecondFactor() {
  return useMutation({ mutationFn: verifySecondFactor });
}
