import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PackageForm, storePackage as storePackageEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** POST /api/tips/prices/store {bet_category_id, medium, name, duration, price}. */
export const storePackageInputSchema = PackageForm;

export function storePackage(body: BodyOf<typeof storePackageEndpoint>) {
  return callEndpoint(storePackageEndpoint, { body });
}

export function useStorePackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: storePackage,
    // The prices lists, the package counts of the catalogue and the durations of the subscriber form.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.tips.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.catalogue.all }),
      ]),
  });
}
