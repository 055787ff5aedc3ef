import { queryOptions, useQuery } from '@tanstack/react-query';
import { me } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/auth/me: the signed-in user, fresh from the server (e.g. last login). */
export function getMe() {
  return callEndpoint(me);
}

export function getMeQueryOptions() {
  return queryOptions({ queryKey: queryKeys.auth.me(), queryFn: getMe });
}

export function useMe() {
  return useQuery(getMeQueryOptions());
}
