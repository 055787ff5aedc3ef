import { useMutation, useQueryClient } from '@tanstack/react-query';
import { privacyErase, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/privacy/erase {phone, reason}: cannot be undone. */
export function useErasePerson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof privacyErase>) => callEndpoint(privacyErase, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.privacy.all }),
  });
}
