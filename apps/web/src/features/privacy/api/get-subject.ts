import { useQuery } from '@tanstack/react-query';
import { privacySubject } from '@betdesk/contract';
import { callEndpoint, downloadFile } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/privacy/subject ?phone -> everything held about the phone (each look is audited). */
export function useSubject(phone: string | null) {
  return useQuery({
    queryKey: queryKeys.privacy.subject(phone),
    queryFn: () => callEndpoint(privacySubject, { query: { phone: phone! } }),
    enabled: phone !== null,
    staleTime: Infinity,
  });
}

/** The same answer saved as one JSON file, to hand to the person. */
export function downloadSubject(phone: string) {
  return downloadFile(privacySubject.path, { phone, download: '1' }, `betdesk-data-${phone}.json`);
}
