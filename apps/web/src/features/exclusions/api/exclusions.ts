import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { markUnder18, recordSelfExclusion, selfExclusions, type BodyOf, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/exclusions: the register, newest first, with its counts. */
export function useExclusions(page: number, perPage: PageSize, search: string) {
  return useQuery({
    queryKey: queryKeys.exclusions.register(page, perPage, search),
    queryFn: () => callEndpoint(selfExclusions, { query: { page, perPage, search } }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/exclusions {phone, period, channel, note}: a person's own request, recorded by staff. */
export function useRecordExclusion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof recordSelfExclusion>) => callEndpoint(recordSelfExclusion, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.exclusions.all }),
  });
}

/** POST /api/exclusions/under-18 {phone, note}. */
export function useMarkUnder18() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof markUnder18>) => callEndpoint(markUnder18, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.exclusions.all }),
  });
}
