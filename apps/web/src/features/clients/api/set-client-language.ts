import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setClientLanguage, type BodyOf, type CustomerLanguage, type ResponseOf, type showClient } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** POST /api/clients/language {client_id, language}. */
export function setLanguage(body: BodyOf<typeof setClientLanguage>) {
  return callEndpoint(setClientLanguage, { body });
}

/**
 * The shown client takes the new language in place: reading the client again would reveal (and
 * audit) the platform passwords once more for nothing.
 */
export function useSetClientLanguage(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: CustomerLanguage) => setLanguage({ client_id: clientId, language }),
    onSuccess: (_answer, language) =>
      queryClient.setQueryData<ResponseOf<typeof showClient>>(['clients', 'show', clientId], (shown) =>
        shown ? { ...shown, client: { ...shown.client, language } } : shown,
      ),
  });
}
