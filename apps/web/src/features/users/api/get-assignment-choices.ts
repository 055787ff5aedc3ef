import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { assignClientsForm, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/users/assign-clients ?page&perPage&search -> users, one page of clients by name, total_records. */
export function getAssignmentChoices(page: number, perPage: PageSize, search: string) {
  return callEndpoint(assignClientsForm, { query: { page, perPage, search } });
}

export function useAssignmentChoices(page: number, perPage: PageSize, search: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.users.assignmentChoices(page, perPage, search),
      queryFn: () => getAssignmentChoices(page, perPage, search),
      placeholderData: keepPreviousData,
    }),
  );
}
