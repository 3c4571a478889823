import { z } from 'zod'

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

/** What an admin sets for the organisation's OpenID Connect provider. */
export const ssoSettingsBody = z.object({
  issuer: z
    .string({ error: 'Issuer URL is required' })
    .trim()
    .url('Issuer must be a URL')
    .max(500, 'Issuer must be at most 500 characters')
    .refine((url) => /^https?:\/\//.test(url), 'Issuer must be an http(s) URL'),
  clientId: z.string({ error: 'Client ID is required' }).trim().min(1, 'Client ID is required').max(300, 'Client ID must be at most 300 characters'),
  /** Absent or empty when updating: the stored secret is kept. */
  clientSecret: z.string().max(1000, 'Client secret must be at most 1000 characters').optional(),
  domains: z
    .array(z.string().trim().toLowerCase().regex(DOMAIN, 'Not a domain name'), { error: 'At least one domain is required' })
    .min(1, 'At least one domain is required')
    .max(20, 'At most 20 domains'),
  defaultRole: z.enum(['user', 'admin'], { error: 'Role must be user or admin' }),
  passwordSignIn: z.boolean({ error: 'Choose whether password sign-in stays allowed' }),
})

export const ssoDomainParams = z.object({ domain: z.string().min(1).max(253) })

export const ssoDomainView = z.object({
  domain: z.string(),
  verified: z.boolean(),
  /** The DNS TXT record that proves the claim (cloud mode); null when the admin's word suffices. */
  record: z.object({ name: z.string(), value: z.string() }).nullable(),
})

export const ssoSettingsResponse = z.object({
  configured: z.boolean(),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  clientSecretSet: z.boolean(),
  domains: z.array(ssoDomainView),
  defaultRole: z.enum(['user', 'admin']),
  passwordSignIn: z.boolean(),
  /** The redirect URI to register at the identity provider. */
  callbackUrl: z.string(),
})

export const ssoEmailBody = z.object({ email: z.string({ error: 'E-mail is required' }).trim().toLowerCase().email('Not an e-mail address').max(254) })
export const ssoLookupResponse = z.object({ sso: z.boolean(), passwordSignIn: z.boolean() })
export const ssoStartResponse = z.object({ url: z.string() })

export type SsoSettingsView = z.infer<typeof ssoSettingsResponse>
