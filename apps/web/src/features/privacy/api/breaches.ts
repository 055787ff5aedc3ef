import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataBreaches, notifyDataBreach, recordDataBreach, type BodyOf, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/privacy/breaches: the register, newest discovery first. */
export function useBreaches(page: number, perPage: PageSize) {
  return useQuery({
    queryKey: queryKeys.privacy.breaches(page, perPage),
    queryFn: () => callEndpoint(dataBreaches, { query: { page, perPage } }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/privacy/breaches/store. */
export function useRecordBreach() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof recordDataBreach>) => callEndpoint(recordDataBreach, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.privacy.all }),
  });
}

/** POST /api/privacy/breaches/notified {id, notified_at, notification_ref}. */
export function useNotifyBreach() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof notifyDataBreach>) => callEndpoint(notifyDataBreach, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.privacy.all }),
  });
}
