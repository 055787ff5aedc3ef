import { queryOptions, useQuery } from '@tanstack/react-query';
import { listUsers } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/users -> users, categories. */
export function getUsers() {
  return callEndpoint(listUsers);
}

export function useUsers() {
  return useQuery(queryOptions({ queryKey: queryKeys.users.list(), queryFn: getUsers }));
}
