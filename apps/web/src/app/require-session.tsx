import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { refresh, useSession } from '@/lib/auth.ts';

/** Any route but /login needs a session (spec 2): no token -> /login. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { token, user } = useSession();

  // A token without a user (e.g. after a failed logout) is checked with the server again.
  useEffect(() => {
    if (token && !user) void refresh();
  }, [token, user]);

  if (!token) return <Navigate to={paths.login} replace />;
  return children;
}
