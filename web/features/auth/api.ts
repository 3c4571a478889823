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

/** After a correct password, a member with a second factor is asked for it. */
export type TwoFactorChallenge = { twoFactorRequired: true; methods: Array<'totp' | 'passkey'> }
export const isChallenge = (answer: Me | TwoFactorChallenge): answer is TwoFactorChallenge => 'twoFactorRequired' in answer

export const authApi = {
  login: (api: ApiClient, body: { email: string; password: string }) => api.post<Me | TwoFactorChallenge>('/auth/login', body),
  secondFactor: (api: ApiClient, body: { code: string; kind: 'totp' | 'recovery' }) => api.post<Me>('/auth/two-factor', body),
  /** The browser's own passkey dialog for the server's challenge, then the sign-in with its answer. */
  passkey: async (api: ApiClient) => {
    const { startAuthentication } = await import('@simplewebauthn/browser')
    const optionsJSON = await api.post<Parameters<typeof startAuthentication>[0]['optionsJSON']>('/auth/passkey/options')
    return api.post<Me>('/auth/passkey', { response: await startAuthentication({ optionsJSON }) })
  },
  ssoLookup: (api: ApiClient, email: string) => api.post<{ sso: boolean; passwordSignIn: boolean }>('/auth/sso/lookup', { email }),
  ssoStart: (api: ApiClient, email: string) => api.post<{ url: string }>('/auth/sso/start', { email }),
  register: (api: ApiClient, body: RegisterInput) => api.post<{ user: Me; signedIn: boolean }>('/auth/register', body),
  confirmEmail: (api: ApiClient, token: string) => api.post<{ ok: true }>('/users/confirm-email', { token }),
  resendConfirmation: (api: ApiClient, email: string) => api.post<{ ok: true }>('/users/resend-confirmation', { email }),
  forgotPassword: (api: ApiClient, email: string) => api.post<{ ok: true }>('/users/forgot-password', { email }),
  resetPassword: (api: ApiClient, body: { token: string; password: string }) =>
    api.post<{ ok: true }>('/users/reset-password', body),
}
