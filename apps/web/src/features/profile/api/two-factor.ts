import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  TwoFactorCode,
  TwoFactorPassword,
  twoFactorDisable,
  twoFactorEnable,
  twoFactorSetup,
  twoFactorStatus,
  type BodyOf,
} from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** GET /api/auth/2fa: whether the signed-in user has a second factor, and whether one is required. */
export function getTwoFactorStatus() {
  return callEndpoint(twoFactorStatus);
}

export function twoFactorStatusQueryOptions() {
  return queryOptions({ queryKey: queryKeys.auth.twoFactor(), queryFn: getTwoFactorStatus });
}

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQueryOptions());
}

/** POST /api/auth/2fa/setup: a new secret and its otpauth:// URL for the QR code. */
export function useSetUpTwoFactor() {
  return useMutation({ mutationFn: () => callEndpoint(twoFactorSetup, {}, { failure: 'log' }) });
}

/** POST /api/auth/2fa/enable {code}: answers the recovery codes, shown once. */
export const enableTwoFactorInputSchema = TwoFactorCode;

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof twoFactorEnable>) => callEndpoint(twoFactorEnable, { body }, { failure: 'log' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey }),
  });
}

/** POST /api/auth/2fa/disable {password}. */
export const disableTwoFactorInputSchema = TwoFactorPassword;

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof twoFactorDisable>) => callEndpoint(twoFactorDisable, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey }),
  });
}
