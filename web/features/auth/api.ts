import { queryOptions } from '@tanstack/react-query'
import type { ApiClient } from '../../lib/api-client'

export type Me = {
  id: string
  name: string
  email: string
  emailVerified: boolean
  role: 'user' | 'admin'
  locale: 'en' | 'de'
  organization: { id: string; name: string }
}

export const authQueries = {
  me: (api: ApiClient) => queryOptions({ queryKey: ['auth', 'me'], queryFn: () => api.get<Me>('/auth/me'), retry: false }),
}

export type RegisterInput = {
  email: string
  name: string
  organizationName: string
  password: string
  passwordConfirmation: string
  termsAccepted: true
  locale: 'en' | 'de'
}

export const authApi = {
  login: (api: ApiClient, body: { email: string; password: string }) => api.post<Me>('/auth/login', body),
  register: (api: ApiClient, body: RegisterInput) => api.post<{ user: Me; signedIn: boolean }>('/auth/register', body),
  logout: (api: ApiClient) => api.post<{ ok: true }>('/auth/logout'),
  confirmEmail: (api: ApiClient, token: string) => api.post<{ ok: true }>('/users/confirm-email', { token }),
  resendConfirmation: (api: ApiClient, email: string) => api.post<{ ok: true }>('/users/resend-confirmation', { email }),
  forgotPassword: (api: ApiClient, email: string) => api.post<{ ok: true }>('/users/forgot-password', { email }),
  resetPassword: (api: ApiClient, body: { token: string; password: string }) =>
    api.post<{ ok: true }>('/users/reset-password', body),
}
