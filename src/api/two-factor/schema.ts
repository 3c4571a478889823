import { z } from 'zod'

// better-auth takes passwords of at most 128 characters.
const password = z.string().min(1, 'Password is required').max(128, 'Password must be at most 128 characters')

export const passwordBody = z.object({ password })
/** A code from the authenticator app (six digits), or a recovery code (`kind: 'recovery'`). */
export const codeBody = z.object({ code: z.string().trim().min(1, 'Code is required').max(64) })
export const requirementBody = z.object({ required: z.boolean() })

export const twoFactorStatusResponse = z.object({
  /** An authenticator app is set up (its first code was entered). */
  totp: z.boolean(),
  /** Recovery codes not used yet; null without an authenticator app. */
  recoveryCodesLeft: z.number().int().nullable(),
  passkeys: z.number().int(),
  /** The member has a password (the organisation's requirement applies to such members only). */
  hasPassword: z.boolean(),
  /** The organisation requires a second factor of members with a password. */
  required: z.boolean(),
})

export const totpSetupResponse = z.object({
  /** The `otpauth://` address an authenticator app reads (as a QR code or pasted). */
  totpUri: z.string(),
  /** The secret in base32, for apps that take it typed in. */
  secret: z.string(),
  /** Ten single-use codes; shown now and never again. */
  recoveryCodes: z.array(z.string()),
})

export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) })
export const requirementResponse = z.object({ required: z.boolean() })
