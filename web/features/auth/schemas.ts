import { z } from 'zod/mini'
import { emailField, strongPassword } from '../../lib/form-fields'

// Messages are i18n keys of the `validation` namespace. The sign-in form checks its two fields
// without zod (login-values.ts), so that the sign-in page loads no form library.

const passwordsMatch = (v: { password: string; passwordConfirmation: string }) => v.password === v.passwordConfirmation
const mismatch = { path: ['passwordConfirmation'], message: 'passwordsMismatch' }

export const registerSchema = z
  .object({
    email: emailField,
    name: z.string().check(z.trim(), z.minLength(1, 'nameRequired'), z.maxLength(100, 'tooLong')),
    organizationName: z.string().check(z.trim(), z.minLength(1, 'organizationRequired'), z.maxLength(100, 'tooLong')),
    password: strongPassword,
    passwordConfirmation: z.string(),
    termsAccepted: z.boolean().check(z.refine((v) => v, 'termsRequired')),
  })
  .check(z.refine(passwordsMatch, mismatch))
export type RegisterValues = z.infer<typeof registerSchema>

export const emailOnlySchema = z.object({ email: emailField })
export type EmailOnlyValues = z.infer<typeof emailOnlySchema>

export const newPasswordSchema = z
  .object({ password: strongPassword, passwordConfirmation: z.string() })
  .check(z.refine(passwordsMatch, mismatch))
export type NewPasswordValues = z.infer<typeof newPasswordSchema>
