import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { initialiseTaxDevice, saveTaxSettings, taxSettings, type TaxSettings } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/tax/settings: the eTIMS device and whether invoicing is on. */
export function useTaxSettings() {
  return useQuery(queryOptions({ queryKey: queryKeys.tax.settings(), queryFn: () => callEndpoint(taxSettings) }));
}

/** POST /api/tax/settings. */
export function useSaveTaxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TaxSettings) => callEndpoint(saveTaxSettings, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tax.all }),
  });
}

/** POST /api/tax/initialise: KRA's device initialisation; waiting sales are queued. */
export function useInitialiseTaxDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(initialiseTaxDevice),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tax.all }),
  });
}
