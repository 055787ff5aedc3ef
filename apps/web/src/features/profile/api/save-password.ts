import { useMutation } from '@tanstack/react-query';
import { NewPassword, savePassword as savePasswordEndpoint, type BodyOf } from '@betdesk/contract';
import { callEndpoint } from '@/lib/http.ts';

/** POST /api/auth/save-password {password, password_confirmation}. */
export const savePasswordInputSchema = NewPassword;

export type SavePasswordInput = BodyOf<typeof savePasswordEndpoint>;

export function savePassword(body: SavePasswordInput) {
  return callEndpoint(savePasswordEndpoint, { body });
}

export function useSavePassword() {
  return useMutation({ mutationFn: savePassword });
}
