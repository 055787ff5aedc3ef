import { useMutation } from '@tanstack/react-query';
import { Credentials } from '@betdesk/contract';
import { login } from '@/lib/auth.ts';

/** POST /api/auth/login through the auth state machine (stores the session, goes to /dashboard). */
export const loginInputSchema = Credentials;

export function useLogin() {
  return useMutation({ mutationFn: login });
}
