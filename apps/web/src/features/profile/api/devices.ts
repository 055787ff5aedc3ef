import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { devices, endDevice } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/auth/devices: the signed-in user's live sessions. */
export function getDevices() {
  return callEndpoint(devices);
}

export function devicesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.auth.devices(), queryFn: getDevices });
}

export function useDevices() {
  return useQuery(devicesQueryOptions());
}

/** POST /api/auth/devices/end {session_id}: signs that device out. */
export function useEndDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: number) => callEndpoint(endDevice, { body: { session_id: sessionId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
  });
}
