import { z } from 'zod'

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .url(`${name} must be a URL`)
    .max(500, `${name} must be at most 500 characters`)
    .refine((url) => /^https?:\/\//.test(url), `${name} must be an http(s) URL`)

/** The identity provider of a SAML 2.0 sign-in: its metadata (XML, or a URL to read it from once), or its entity ID, sign-in URL and certificate. */
export const samlSettingsBody = z.object({
  metadataXml: z.string().max(256 * 1024, 'Metadata must be at most 256 KB').optional(),
  metadataUrl: httpUrl('Metadata URL').optional(),
  entityId: z.string().trim().max(500, 'Entity ID must be at most 500 characters').optional(),
  ssoUrl: httpUrl('Sign-in URL').optional(),
  certificate: z.string().max(20_000, 'Certificate must be at most 20,000 characters').optional(),
})

/** What an admin sets for the organisation's identity provider: OpenID Connect (the default) or SAML 2.0. */
export const ssoSettingsBody = z
  .object({
    protocol: z.enum(['oidc', 'saml'], { error: 'Protocol must be oidc or saml' }).default('oidc'),
    issuer: httpUrl('Issuer').optional(),
    clientId: z.string().trim().min(1, 'Client ID is required').max(300, 'Client ID must be at most 300 characters').optional(),
    /** Absent or empty when updating: the stored secret is kept. */
    clientSecret: z.string().max(1000, 'Client secret must be at most 1000 characters').optional(),
    saml: samlSettingsBody.optional(),
    domains: z
      .array(z.string().trim().toLowerCase().regex(DOMAIN, 'Not a domain name'), { error: 'At least one domain is required' })
      .min(1, 'At least one domain is required')
      .max(20, 'At most 20 domains'),
    defaultRole: z.enum(['user', 'admin'], { error: 'Role must be user or admin' }),
    passwordSignIn: z.boolean({ error: 'Choose whether password sign-in stays allowed' }),
  })
  .superRefine((body, ctx) => {
    const missing = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message })
    // SAML's fields are checked by the service: saved again without them, a SAML provider keeps its identity provider.
    if (body.protocol === 'oidc') {
      if (!body.issuer) missing(['issuer'], 'Issuer URL is required')
      if (!body.clientId) missing(['clientId'], 'Client ID is required')
    }
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
  protocol: z.enum(['oidc', 'saml']),
  /** OpenID Connect: the issuer; SAML: the identity provider's entity ID. */
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  clientSecretSet: z.boolean(),
  /** SAML: where members are sent to sign in, and until when the provider's signing certificate is valid (null when unknown). */
  saml: z.object({ entityId: z.string(), ssoUrl: z.string(), certificateValidTo: z.string().nullable() }).nullable(),
  domains: z.array(ssoDomainView),
  defaultRole: z.enum(['user', 'admin']),
  passwordSignIn: z.boolean(),
  /** The redirect URI to register at an OpenID provider. */
  callbackUrl: z.string(),
  /** What to register at a SAML identity provider: Kontor's entity ID (its metadata URL) and its assertion consumer service. */
  serviceProvider: z.object({ entityId: z.string(), acsUrl: z.string() }),
})

export const ssoEmailBody = z.object({ email: z.string({ error: 'E-mail is required' }).trim().toLowerCase().email('Not an e-mail address').max(254) })
export const ssoLookupResponse = z.object({ sso: z.boolean(), passwordSignIn: z.boolean() })
export const ssoStartResponse = z.object({ url: z.string() })

export type SsoSettingsView = z.infer<typeof ssoSettingsResponse>
