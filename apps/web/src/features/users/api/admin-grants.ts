import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approveAdminGrant, declineAdminGrant, listAdminGrants, type ResponseOf } from '@betdesk/contract';
import { callEndpoint, request } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

const grantPath = (path: string, id: number) => path.replace(':id', String(id));

/** GET /api/users/admin-grants: admin rights waiting for a second admin, and those decided lately. */
export function useAdminGrants() {
  return useQuery(queryOptions({ queryKey: queryKeys.users.adminGrants(), queryFn: () => callEndpoint(listAdminGrants) }));
}

/**
 * POST /api/users/admin-grants/:id/approve {code}: a second admin gives the rights with a fresh
 * code from their authenticator. The form shows the refusals: 403 to the admin who asked (or one
 * tied to them, or cooling off), 422 under the code.
 */
export function approveAdminGrantWithCode(id: number, code: string) {
  return request<ResponseOf<typeof approveAdminGrant>>('POST', grantPath(approveAdminGrant.path, id), { body: { code } });
}

/** POST /api/users/admin-grants/:id/decline: any admin, the one who asked too. */
export function useDeclineAdminGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<ResponseOf<typeof declineAdminGrant>>('POST', grantPath(declineAdminGrant.path, id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
