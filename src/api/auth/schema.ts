import { z } from 'zod'

export const PASSWORD_MESSAGE = 'Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.'

/** Password rule of spec section 5. */
export const passwordSchema = z
  .string()
  .max(128, 'Password must be at most 128 characters')
  .refine((v) => v.length >= 8 && /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v), PASSWORD_MESSAGE)

export const localeSchema = z.enum(['en', 'de'])
export const organizationNameSchema = z.string().trim().min(1, 'Organisation name is required').max(100)
export const themeSchema = z.enum(['light', 'dark'])
export const emailSchema = z.email('Please enter a valid email address').max(254).transform((v) => v.toLowerCase())
export const nameSchema = z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters')

export const registerBody = z
  .object({
    email: emailSchema,
    name: nameSchema,
    organizationName: organizationNameSchema,
    password: passwordSchema,
    passwordConfirmation: z.string().max(128),
    termsAccepted: z.literal(true, 'You must accept the terms and privacy policy'),
    locale: localeSchema.optional(),
  })
  .refine((b) => b.password === b.passwordConfirmation, {
    path: ['passwordConfirmation'],
    message: 'Passwords do not match',
  })

export const loginBody = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Password is required').max(256),
})

export const meResponse = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  role: z.enum(['user', 'admin']),
  locale: localeSchema,
  /** Picked on any device; the pages apply it before first paint. Null until the member picks one. */
  theme: themeSchema.nullable(),
  organization: z.object({ id: z.string(), name: z.string() }),
  /** The organisation requires a second factor the member has not set up: the app sends them to set one up. */
  twoFactorSetupRequired: z.boolean(),
})

export const registerResponse = z.object({ user: meResponse, signedIn: z.boolean() })

export type MeResponse = z.infer<typeof meResponse>

/** A code from the authenticator app (six digits), or a recovery code (`kind: 'recovery'`). */
export const signInCodeBody = z.object({ code: z.string().trim().min(1, 'Code is required').max(64), kind: z.enum(['totp', 'recovery']).default('totp') })

/** After a correct password: the second factors the member may complete the sign-in with. */
export const twoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  methods: z.array(z.enum(['totp', 'passkey'])),
})
export const loginResponse = z.union([meResponse, twoFactorChallenge])
export type TwoFactorChallenge = z.infer<typeof twoFactorChallenge>

/** The browser's answer to a passkey challenge (`navigator.credentials.get`, as @simplewebauthn/browser encodes it). */
export const passkeySignInBody = z.object({ response: z.object({ id: z.string().min(1).max(1024), type: z.literal('public-key') }).passthrough() })
