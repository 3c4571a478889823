import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { SessionView } from '../../../src/api/sessions/schema'
import type { ApiClient } from '../../lib/api-client'
import type { Language } from '../../lib/i18n'
import type { Theme } from '../../lib/theme'
import { useApi } from '../../lib/use-api'
import { sessionQueries, type Me } from '../../lib/session'

export type ChangePasswordInput = { currentPassword: string; newPassword: string }

export const settingsApi = {
  changeName: (api: ApiClient, name: string) => api.patch<Me>('/users/name', { name }),
  changeLocale: (api: ApiClient, locale: Language) => api.patch<Me>('/users/locale', { locale }),
  changeTheme: (api: ApiClient, theme: Theme) => api.patch<Me>('/users/theme', { theme }),
  changePassword: (api: ApiClient, body: ChangePasswordInput) => api.patch<{ ok: true }>('/users/password', body),
}

/** Mutations that answer with the new `me` put it straight into the cache the shell reads. */
function useMeMutation<T>(fn: (api: ApiClient, input: T) => Promise<Me>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: (me) => queryClient.setQueryData(sessionQueries.me(api).queryKey, me),
  })
}

export const useChangeName = () => useMeMutation(settingsApi.changeName)
export const useChangeLocale = () => useMeMutation(settingsApi.changeLocale)
export const useChangeTheme = () => useMeMutation(settingsApi.changeTheme)

export function useChangePassword() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => settingsApi.changePassword(api, input),
    // The other sessions ended with the change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS }),
  })
}

export type SignedInSession = SessionView
const SESSIONS = ['sessions'] as const

export const sessionListQuery = (api: ApiClient) =>
  queryOptions({ queryKey: SESSIONS, queryFn: () => api.get<SignedInSession[]>('/sessions'), staleTime: 0 })

function useSessionsMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: (input: T) => fn(api, input), onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS }) })
}

export const useEndSession = () => useSessionsMutation((api, id: string) => api.delete<void>(`/sessions/${encodeURIComponent(id)}`))
export const useEndOtherSessions = () => useSessionsMutation((api, _: void) => api.post<{ ended: number }>('/sessions/end-others'))
