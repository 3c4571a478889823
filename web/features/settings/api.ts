import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { SessionView } from '../../../src/api/sessions/schema'
import type { ApiClient } from '../../lib/api-client'
import type { Language } from '../../lib/i18n'
import { themeSaved, type Theme } from '../../lib/theme'
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

/**
 * A theme's saves go one after another, so the account ends with the last choice; each that
 * arrives clears this browser's mark of an unsaved choice (lib/theme.ts), wherever the member is by then.
 */
export function useChangeTheme() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (theme: Theme) => settingsApi.changeTheme(api, theme),
    scope: { id: 'theme' },
    onSuccess: (me) => {
      queryClient.setQueryData(sessionQueries.me(api).queryKey, me)
      if (me.theme) themeSaved(me.theme)
    },
  })
}

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
