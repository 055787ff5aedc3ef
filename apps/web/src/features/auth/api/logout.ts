import { useMutation } from '@tanstack/react-query';
import { logout } from '@/lib/auth.ts';

/** POST /api/auth/logout through the auth state machine (clears the session, goes to /login). */
export function useLogout() {
  return useMutation({ mutationFn: logout });
}
