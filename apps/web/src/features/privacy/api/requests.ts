import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addPrivacyRequest, completePrivacyRequest, privacyRequests, type BodyOf, type PageSize } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/privacy/requests: open ones first, by deadline. */
export function usePrivacyRequests(page: number, perPage: PageSize) {
  return useQuery({
    queryKey: queryKeys.privacy.requests(page, perPage),
    queryFn: () => callEndpoint(privacyRequests, { query: { page, perPage } }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/privacy/requests/store {kind, phone, note}. */
export function useAddPrivacyRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof addPrivacyRequest>) => callEndpoint(addPrivacyRequest, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.privacy.all }),
  });
}

/** POST /api/privacy/requests/done {id, outcome}. */
export function useCompletePrivacyRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof completePrivacyRequest>) => callEndpoint(completePrivacyRequest, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.privacy.all }),
  });
}
