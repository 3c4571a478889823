import { queryOptions } from '@tanstack/react-query'
import type { ApiClient } from './api-client'

/** The signed-in caller: every screen reads it (role, organisation, locale), so it lives below the features. */
export type Me = {
  id: string
  name: string
  email: string
  emailVerified: boolean
  role: 'user' | 'admin'
  locale: 'en' | 'de'
  theme: 'light' | 'dark' | null
  organization: { id: string; name: string }
  /** The organisation requires a second factor this member has not set up yet. */
  twoFactorSetupRequired: boolean
}

export const SESSION_QUERY_KEY = ['auth', 'me'] as const

export const sessionQueries = {
  me: (api: ApiClient) => queryOptions({ queryKey: SESSION_QUERY_KEY, queryFn: () => api.get<Me>('/auth/me'), retry: false }),
}

/** Ends the session (the shell's sign-out and the invite page's "not you?"). */
export const signOut = (api: ApiClient) => api.post<{ ok: true }>('/auth/logout')
