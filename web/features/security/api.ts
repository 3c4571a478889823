import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { SsoSettingsView, ssoSettingsBody } from '../../../src/api/sso/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type SsoSettings = SsoSettingsView
export type SsoSettingsInput = z.input<typeof ssoSettingsBody>

const SSO = ['sso'] as const

const REQUIREMENT = ['two-factor', 'requirement'] as const

export const securityQueries = {
  sso: (api: ApiClient) => queryOptions({ queryKey: SSO, queryFn: () => api.get<SsoSettings>('/sso') }),
  twoFactorRequirement: (api: ApiClient) => queryOptions({ queryKey: REQUIREMENT, queryFn: () => api.get<{ required: boolean }>('/two-factor/requirement') }),
}

/** Requires a second factor of the organisation's members with a password, or stops requiring it; `me` is read again (the admin may now need one). */
export function useSetTwoFactorRequirement() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (required: boolean) => api.put<{ required: boolean }>('/two-factor/requirement', { required }),
    onSuccess: (data) => {
      queryClient.setQueryData(REQUIREMENT, data)
      return queryClient.invalidateQueries({ queryKey: ['auth', 'me'] })
    },
  })
}

function useSsoMutation<T>(fn: (api: ApiClient, input: T) => Promise<SsoSettings | void>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: (data) => (data ? queryClient.setQueryData(SSO, data) : queryClient.invalidateQueries({ queryKey: SSO })),
  })
}

export const useSaveSso = () => useSsoMutation((api, body: SsoSettingsInput) => api.put<SsoSettings>('/sso', body))
export const useRemoveSso = () => useSsoMutation((api, _: void) => api.delete<void>('/sso'))
export const useVerifySsoDomain = () =>
  useSsoMutation((api, domain: string) => api.post<SsoSettings>(`/sso/domains/${encodeURIComponent(domain)}/verify`, {}))
