import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { marketingConsent, recordMarketingConsent, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/privacy/consent ?phone -> given or not, since when, how, and its history. */
export function useConsent(phone: string | null) {
  return useQuery({
    queryKey: queryKeys.privacy.consentOf(phone),
    queryFn: () => callEndpoint(marketingConsent, { query: { phone: phone! } }),
    enabled: phone !== null,
  });
}

/** POST /api/privacy/consent {phone, given, note}: what the person told staff. */
export function useRecordConsent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof recordMarketingConsent>) => callEndpoint(recordMarketingConsent, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.privacy.consent }),
  });
}
