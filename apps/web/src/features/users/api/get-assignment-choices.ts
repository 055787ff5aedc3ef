import { queryOptions, useQuery } from '@tanstack/react-query';
import { assignClientsForm } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** GET /api/users/assign-clients -> users, clients. */
export function getAssignmentChoices() {
  return callEndpoint(assignClientsForm);
}

export function useAssignmentChoices() {
  return useQuery(queryOptions({ queryKey: ['users', 'assign-clients'], queryFn: getAssignmentChoices }));
}
