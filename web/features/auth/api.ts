import type { ApiClient } from '../../lib/api-client'
import type { Me } from '../../lib/session'

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
  ssoLookup: (api: ApiClient, email: string) => api.post<{ sso: boolean; passwordSignIn: boolean }>('/auth/sso/lookup', { email }),
  ssoStart: (api: ApiClient, email: string) => api.post<{ url: string }>('/auth/sso/start', { email }),
  register: (api: ApiClient, body: RegisterInput) => api.post<{ user: Me; signedIn: boolean }>('/auth/register', body),
  confirmEmail: (api: ApiClient, token: string) => api.post<{ ok: true }>('/users/confirm-email', { token }),
  resendConfirmation: (api: ApiClient, email: string) => api.post<{ ok: true }>('/users/resend-confirmation', { email }),
  forgotPassword: (api: ApiClient, email: string) => api.post<{ ok: true }>('/users/forgot-password', { email }),
  resetPassword: (api: ApiClient, body: { token: string; password: string }) =>
    api.post<{ ok: true }>('/users/reset-password', body),
}
