import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { PasskeyView } from '../../../src/api/passkeys/schema'
import type { recoveryCodesResponse, totpSetupResponse, twoFactorStatusResponse } from '../../../src/api/two-factor/schema'
import type { ApiClient } from '../../lib/api-client'
import { SESSION_QUERY_KEY } from '../../lib/session'
import { useApi } from '../../lib/use-api'

export type TwoFactorStatus = z.infer<typeof twoFactorStatusResponse>
export type TotpSetup = z.infer<typeof totpSetupResponse>
export type Passkey = PasskeyView

const STATUS = ['two-factor'] as const
const PASSKEYS = ['passkeys'] as const

export const twoFactorQueries = {
  status: (api: ApiClient) => queryOptions({ queryKey: STATUS, queryFn: () => api.get<TwoFactorStatus>('/two-factor') }),
  passkeys: (api: ApiClient) => queryOptions({ queryKey: PASSKEYS, queryFn: () => api.get<Passkey[]>('/passkeys') }),
}

/** A change of the caller's second factors: the status, the passkeys and `me` (whether one is still missing) are read again. */
function useTwoFactorMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () =>
      Promise.all([STATUS, PASSKEYS, SESSION_QUERY_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}

/** Starts setting up an authenticator app: nothing changes until its first code is confirmed. */
export function useStartTotp() {
  const api = useApi()
  return useMutation({ mutationFn: (password: string) => api.post<TotpSetup>('/two-factor/totp', { password }) })
}
export const useConfirmTotp = () => useTwoFactorMutation((api, code: string) => api.post<TwoFactorStatus>('/two-factor/totp/verify', { code }))
export const useDisableTotp = () => useTwoFactorMutation((api, password: string) => api.post<TwoFactorStatus>('/two-factor/totp/disable', { password }))
export const useRenewRecoveryCodes = () =>
  useTwoFactorMutation((api, password: string) => api.post<z.infer<typeof recoveryCodesResponse>>('/two-factor/recovery-codes', { password }))

/** Creates a passkey in the browser (its own dialog) for the server's challenge, then keeps it under the name. */
export const useAddPasskey = () =>
  useTwoFactorMutation(async (api, name: string) => {
    const { startRegistration } = await import('@simplewebauthn/browser')
    const optionsJSON = await api.post<Parameters<typeof startRegistration>[0]['optionsJSON']>('/passkeys/options')
    const response = await startRegistration({ optionsJSON })
    return api.post<Passkey>('/passkeys', { name, response })
  })
export const useRenamePasskey = () => useTwoFactorMutation((api, input: { id: string; name: string }) => api.patch<Passkey>(`/passkeys/${input.id}`, { name: input.name }))
export const useRemovePasskey = () => useTwoFactorMutation((api, id: string) => api.delete<void>(`/passkeys/${id}`))
